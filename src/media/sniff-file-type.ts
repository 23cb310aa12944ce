/**
 * What a file is, judged from its first bytes rather than from the name or the type the client
 * declared: an allow-list that trusted either would let `evil.html` in as `image/png`.
 */

export interface FileType {
  mime: string;
  /** the usual extension, used when the file name has none */
  ext: string;
}

/** Bytes read before judging; signatures need far fewer, text detection wants a fair sample. */
export const SNIFF_BYTES = 512;

const OCTET_STREAM: FileType = { mime: 'application/octet-stream', ext: '' };

const startsWith = (head: Buffer, bytes: number[] | string, offset = 0): boolean => {
  const signature = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
  return head.length >= offset + signature.length && head.subarray(offset, offset + signature.length).equals(signature);
};

/** ISO base media files (MP4, QuickTime, AVIF, HEIC) name their flavour in the `ftyp` box. */
const isoMediaType = (head: Buffer): FileType | undefined => {
  if (!startsWith(head, 'ftyp', 4)) return undefined;
  const brand = head.subarray(8, 12).toString('latin1');
  if (brand === 'avif' || brand === 'avis') return { mime: 'image/avif', ext: '.avif' };
  if (['heic', 'heix', 'heim', 'heis', 'mif1', 'msf1'].includes(brand)) return { mime: 'image/heic', ext: '.heic' };
  if (brand === 'qt  ') return { mime: 'video/quicktime', ext: '.mov' };
  if (brand === 'M4A ') return { mime: 'audio/mp4', ext: '.m4a' };
  return { mime: 'video/mp4', ext: '.mp4' };
};

const riffType = (head: Buffer): FileType | undefined => {
  if (!startsWith(head, 'RIFF')) return undefined;
  if (startsWith(head, 'WEBP', 8)) return { mime: 'image/webp', ext: '.webp' };
  if (startsWith(head, 'WAVE', 8)) return { mime: 'audio/wav', ext: '.wav' };
  if (startsWith(head, 'AVI ', 8)) return { mime: 'video/x-msvideo', ext: '.avi' };
  return undefined;
};

const SIGNATURES: Array<{ test: (head: Buffer) => boolean; type: FileType }> = [
  { test: (head) => startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), type: { mime: 'image/png', ext: '.png' } },
  { test: (head) => startsWith(head, [0xff, 0xd8, 0xff]), type: { mime: 'image/jpeg', ext: '.jpg' } },
  { test: (head) => startsWith(head, 'GIF87a') || startsWith(head, 'GIF89a'), type: { mime: 'image/gif', ext: '.gif' } },
  // "BM" alone starts many texts; the four reserved bytes after the size are zero in real bitmaps.
  { test: (head) => startsWith(head, 'BM') && startsWith(head, [0, 0, 0, 0], 6), type: { mime: 'image/bmp', ext: '.bmp' } },
  { test: (head) => startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a]), type: { mime: 'image/tiff', ext: '.tif' } },
  { test: (head) => startsWith(head, '%PDF-'), type: { mime: 'application/pdf', ext: '.pdf' } },
  { test: (head) => startsWith(head, [0x1f, 0x8b]), type: { mime: 'application/gzip', ext: '.gz' } },
  { test: (head) => startsWith(head, 'OggS'), type: { mime: 'audio/ogg', ext: '.ogg' } },
  { test: (head) => startsWith(head, 'fLaC'), type: { mime: 'audio/flac', ext: '.flac' } },
  { test: (head) => startsWith(head, 'ID3') || startsWith(head, [0xff, 0xfb]) || startsWith(head, [0xff, 0xf3]), type: { mime: 'audio/mpeg', ext: '.mp3' } },
  { test: (head) => startsWith(head, 'wOFF'), type: { mime: 'font/woff', ext: '.woff' } },
  { test: (head) => startsWith(head, 'wOF2'), type: { mime: 'font/woff2', ext: '.woff2' } },
];

const matroskaType = (head: Buffer): FileType | undefined => {
  if (!startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return undefined;
  return head.includes('webm', 0, 'latin1') ? { mime: 'video/webm', ext: '.webm' } : { mime: 'video/x-matroska', ext: '.mkv' };
};

/** Office documents, OpenDocument and EPUB are ZIP archives: their declared type is kept when the content is a ZIP. */
const ZIP_BASED = /^application\/(vnd\.openxmlformats-officedocument\.[\w.+-]+|vnd\.oasis\.opendocument\.[\w.+-]+|epub\+zip|java-archive)$/;

const zipType = (head: Buffer, declared: string): FileType | undefined => {
  if (!startsWith(head, [0x50, 0x4b, 0x03, 0x04]) && !startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return undefined;
  return ZIP_BASED.test(declared) ? { mime: declared, ext: '' } : { mime: 'application/zip', ext: '.zip' };
};

const TEXT_TYPES = /^(text\/[\w.+-]+|application\/(json|xml|javascript|x-yaml|yaml|[\w.-]+\+(json|xml))|image\/svg\+xml)$/;

/** No NUL byte and valid UTF-8 (a multi-byte character cut by the sample's end is allowed). */
const looksLikeText = (head: Buffer, complete: boolean): boolean => {
  if (head.includes(0)) return false;
  for (let cut = 0; cut < 4; cut += 1) {
    const sample = head.subarray(0, head.length - cut);
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(sample);
      return true;
    } catch {
      if (complete) return false;
    }
  }
  return false;
};

/**
 * The file's type from its first bytes (`complete` when they are the whole file). Text has no
 * signature: text content keeps a textual declared type (JSON, CSV, SVG…) and is `text/plain`
 * otherwise; anything unrecognised is `application/octet-stream`.
 */
export const sniffFileType = (head: Buffer, declared: string, complete: boolean): FileType => {
  const declaredType = declared.toLowerCase().split(';')[0].trim();
  const signed = SIGNATURES.find((signature) => signature.test(head))?.type ?? isoMediaType(head) ?? riffType(head) ?? matroskaType(head) ?? zipType(head, declaredType);
  if (signed) return signed;
  if (head.length > 0 && looksLikeText(head, complete)) {
    return TEXT_TYPES.test(declaredType) ? { mime: declaredType, ext: '' } : { mime: 'text/plain', ext: '.txt' };
  }
  return OCTET_STREAM;
};

/** `image/png` matches `image/png` and `image/*`; an empty list allows everything. */
export const isTypeAllowed = (mime: string, allowed: readonly string[]): boolean =>
  allowed.length === 0 || allowed.some((pattern) => (pattern.endsWith('/*') ? mime.startsWith(pattern.slice(0, -1)) : mime === pattern.toLowerCase()));
