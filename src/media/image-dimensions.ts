/**
 * Width and height from an image's header, read with a few small positional reads: a JPEG's
 * size can sit behind megabytes of EXIF, so segments are skipped by their lengths, never read.
 */

export interface Dimensions {
  width: number;
  height: number;
}

/** Up to `length` bytes at `position` (fewer at the end of the file). */
export type ReadAt = (position: number, length: number) => Promise<Buffer>;

// A JPEG is a chain of segments; a crafted one could chain many tiny ones before the frame header.
const MAX_JPEG_SEGMENTS = 1000;

const pngSize = async (readAt: ReadAt): Promise<Dimensions | null> => {
  const header = await readAt(12, 12);
  if (header.length < 12 || header.toString('latin1', 0, 4) !== 'IHDR') return null;
  return { width: header.readUInt32BE(4), height: header.readUInt32BE(8) };
};

const gifSize = async (readAt: ReadAt): Promise<Dimensions | null> => {
  const header = await readAt(6, 4);
  return header.length < 4 ? null : { width: header.readUInt16LE(0), height: header.readUInt16LE(2) };
};

const bmpSize = async (readAt: ReadAt): Promise<Dimensions | null> => {
  const header = await readAt(18, 8);
  // A negative height marks a top-down bitmap.
  return header.length < 8 ? null : { width: header.readInt32LE(0), height: Math.abs(header.readInt32LE(4)) };
};

const webpSize = async (readAt: ReadAt): Promise<Dimensions | null> => {
  const chunk = await readAt(12, 18);
  switch (chunk.toString('latin1', 0, 4)) {
    case 'VP8 ':
      // Lossy: a keyframe start code, then 14-bit dimensions.
      if (chunk.length < 18 || chunk[11] !== 0x9d || chunk[12] !== 0x01 || chunk[13] !== 0x2a) return null;
      return { width: chunk.readUInt16LE(14) & 0x3fff, height: chunk.readUInt16LE(16) & 0x3fff };
    case 'VP8L': {
      // Lossless: a signature byte, then 14-bit width-1 and height-1 packed little-endian.
      if (chunk.length < 13 || chunk[8] !== 0x2f) return null;
      const bits = chunk.readUInt32LE(9);
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
    case 'VP8X':
      // Extended: 24-bit canvas width-1 and height-1.
      return chunk.length < 18 ? null : { width: chunk.readUIntLE(12, 3) + 1, height: chunk.readUIntLE(15, 3) + 1 };
    default:
      return null;
  }
};

const isFrameHeader = (marker: number): boolean => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

const jpegSize = async (readAt: ReadAt): Promise<Dimensions | null> => {
  let position = 2;
  for (let segments = 0; segments < MAX_JPEG_SEGMENTS; segments += 1) {
    const header = await readAt(position, 9);
    if (header.length < 4 || header[0] !== 0xff) return null;
    const marker = header[1];
    if (marker === 0xff) {
      position += 1; // fill byte
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or start of scan: no frame header before it
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      position += 2; // markers without a length
      continue;
    }
    if (isFrameHeader(marker)) {
      return header.length < 9 ? null : { width: header.readUInt16BE(7), height: header.readUInt16BE(5) };
    }
    const length = header.readUInt16BE(2);
    if (length < 2) return null;
    position += 2 + length;
  }
  return null;
};

// Far more entries than any real first directory holds; a crafted count is not read past this.
const MAX_TIFF_ENTRIES = 512;
const TIFF_WIDTH = 256;
const TIFF_HEIGHT = 257;
const TIFF_SHORT = 3;
const TIFF_LONG = 4;

/** The first image directory's ImageWidth and ImageLength entries, in the file's byte order. */
const tiffSize = async (readAt: ReadAt): Promise<Dimensions | null> => {
  const header = await readAt(0, 8);
  if (header.length < 8) return null;
  const little = header.toString('latin1', 0, 2) === 'II';
  const u16 = (buffer: Buffer, at: number) => (little ? buffer.readUInt16LE(at) : buffer.readUInt16BE(at));
  const u32 = (buffer: Buffer, at: number) => (little ? buffer.readUInt32LE(at) : buffer.readUInt32BE(at));
  const directory = u32(header, 4);
  const countBytes = await readAt(directory, 2);
  if (countBytes.length < 2) return null;
  const count = Math.min(u16(countBytes, 0), MAX_TIFF_ENTRIES);
  const entries = await readAt(directory + 2, count * 12);
  const sizes = new Map<number, number>();
  for (let at = 0; at + 12 <= entries.length; at += 12) {
    const tag = u16(entries, at);
    const type = u16(entries, at + 2);
    if (tag !== TIFF_WIDTH && tag !== TIFF_HEIGHT) continue;
    if (type === TIFF_SHORT) sizes.set(tag, u16(entries, at + 8));
    else if (type === TIFF_LONG) sizes.set(tag, u32(entries, at + 8));
  }
  const width = sizes.get(TIFF_WIDTH);
  const height = sizes.get(TIFF_HEIGHT);
  return width !== undefined && height !== undefined ? { width, height } : null;
};

const READERS: Record<string, (readAt: ReadAt) => Promise<Dimensions | null>> = {
  'image/png': pngSize,
  'image/gif': gifSize,
  'image/bmp': bmpSize,
  'image/webp': webpSize,
  'image/jpeg': jpegSize,
  'image/tiff': tiffSize,
};

/** The image's size, or null for other types and for headers that do not parse. */
export const readImageDimensions = async (mime: string, readAt: ReadAt): Promise<Dimensions | null> => {
  const reader = READERS[mime];
  return reader ? reader(readAt) : null;
};
