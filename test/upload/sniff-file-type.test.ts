import { isTypeAllowed, sniffFileType } from '../../src/media/sniff-file-type';
import { bmp, gif, jpeg, png, webpLossy } from './images';

const sniff = (bytes: Buffer | string, declared = 'application/octet-stream', complete = true) => sniffFileType(Buffer.from(bytes), declared, complete);

describe('sniffFileType', () => {
  test.each([
    ['PNG', png(2, 2), 'image/png', '.png'],
    ['JPEG', jpeg(2, 2), 'image/jpeg', '.jpg'],
    ['GIF', gif(2, 2), 'image/gif', '.gif'],
    ['WebP', webpLossy(2, 2), 'image/webp', '.webp'],
    ['BMP', bmp(2, 2), 'image/bmp', '.bmp'],
    ['PDF', Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'), 'application/pdf', '.pdf'],
    ['MP4', Buffer.from('\0\0\0\x18ftypisom\0\0\0\0isomiso2', 'latin1'), 'video/mp4', '.mp4'],
    ['AVIF', Buffer.from('\0\0\0\x1cftypavif\0\0\0\0avifmif1', 'latin1'), 'image/avif', '.avif'],
    ['ZIP', Buffer.from('PK\x03\x04\x14\0\0\0', 'latin1'), 'application/zip', '.zip'],
  ])('recognises %s by its signature, whatever was declared', (_, bytes, mime, ext) => {
    expect(sniff(bytes, 'text/html')).toEqual({ mime, ext });
  });

  test('a declared image type does not make HTML an image', () => {
    expect(sniff('<html><script>alert(1)</script></html>', 'image/png')).toEqual({ mime: 'text/plain', ext: '.txt' });
  });

  test('text keeps a textual declared type and is text/plain otherwise', () => {
    expect(sniff('{"a":1}', 'application/json').mime).toBe('application/json');
    expect(sniff('a,b\n1,2', 'text/csv; charset=utf-8').mime).toBe('text/csv');
    expect(sniff('<svg xmlns="http://www.w3.org/2000/svg"/>', 'image/svg+xml').mime).toBe('image/svg+xml');
    expect(sniff('plain words', 'application/x-msdownload').mime).toBe('text/plain');
    expect(sniff('héllo wörld', '').mime).toBe('text/plain');
  });

  test('bytes that are neither a known format nor UTF-8 text are application/octet-stream', () => {
    expect(sniff(Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03]), 'image/png')).toEqual({ mime: 'application/octet-stream', ext: '' });
    expect(sniff(Buffer.from([0xc3, 0x28, 0x41]), 'text/plain').mime).toBe('application/octet-stream');
  });

  test('a multi-byte character cut by the end of the sample is still text, unless the file ends there', () => {
    const cut = Buffer.from('aé', 'utf8').subarray(0, 2);
    expect(sniffFileType(cut, 'text/plain', false).mime).toBe('text/plain');
    expect(sniffFileType(cut, 'text/plain', true).mime).toBe('application/octet-stream');
  });

  test('office documents keep their declared type when the content is a ZIP', () => {
    const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    expect(sniff(Buffer.from('PK\x03\x04', 'latin1'), docx).mime).toBe(docx);
  });
});

describe('isTypeAllowed', () => {
  test('exact types and wildcards; an empty list allows everything', () => {
    expect(isTypeAllowed('image/png', [])).toBe(true);
    expect(isTypeAllowed('image/png', ['image/*'])).toBe(true);
    expect(isTypeAllowed('image/png', ['image/jpeg', 'image/png'])).toBe(true);
    expect(isTypeAllowed('text/plain', ['image/*', 'application/pdf'])).toBe(false);
    expect(isTypeAllowed('imagex/png', ['image/*'])).toBe(false);
  });
});
