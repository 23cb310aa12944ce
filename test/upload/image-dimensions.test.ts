import { readImageDimensions, type ReadAt } from '../../src/media/image-dimensions';
import sharp from 'sharp';
import { bmp, gif, jpeg, png, webpExtended, webpLossless, webpLossy } from './images';

/** A big-endian TIFF header whose first directory holds the width as a LONG and the height as a SHORT. */
const bigEndianTiff = (width: number, height: number): Buffer => {
  const bytes = Buffer.alloc(8 + 2 + 3 * 12 + 4);
  bytes.write('MM', 0, 'latin1');
  bytes.writeUInt16BE(42, 2);
  bytes.writeUInt32BE(8, 4);
  bytes.writeUInt16BE(3, 8);
  const entry = (index: number, tag: number, type: number, value: number) => {
    const at = 10 + index * 12;
    bytes.writeUInt16BE(tag, at);
    bytes.writeUInt16BE(type, at + 2);
    bytes.writeUInt32BE(1, at + 4);
    if (type === 3) bytes.writeUInt16BE(value, at + 8);
    else bytes.writeUInt32BE(value, at + 8);
  };
  entry(0, 254, 4, 0);
  entry(1, 256, 4, width);
  entry(2, 257, 3, height);
  return bytes;
};

/** A ReadAt over a buffer that records the bytes asked for, to show headers are read, not whole files. */
const readerOf = (bytes: Buffer) => {
  const reads: number[] = [];
  const readAt: ReadAt = async (position, length) => {
    reads.push(length);
    return bytes.subarray(position, position + length);
  };
  return { readAt, bytesRead: () => reads.reduce((sum, length) => sum + length, 0) };
};

const measure = (mime: string, bytes: Buffer) => readImageDimensions(mime, readerOf(bytes).readAt);

describe('readImageDimensions', () => {
  test.each([
    ['PNG', 'image/png', png(640, 480)],
    ['GIF', 'image/gif', gif(640, 480)],
    ['JPEG', 'image/jpeg', jpeg(640, 480)],
    ['WebP (lossy)', 'image/webp', webpLossy(640, 480)],
    ['WebP (lossless)', 'image/webp', webpLossless(640, 480)],
    ['WebP (extended)', 'image/webp', webpExtended(640, 480)],
    ['BMP', 'image/bmp', bmp(640, 480)],
  ])('%s', async (_, mime, bytes) => {
    expect(await measure(mime, bytes)).toEqual({ width: 640, height: 480 });
  });

  test('TIFF: a file sharp writes (little-endian) and a big-endian header with LONG and SHORT entries', async () => {
    const written = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#123456' } }).tiff().toBuffer();
    expect(await measure('image/tiff', written)).toEqual({ width: 640, height: 480 });
    expect(await measure('image/tiff', bigEndianTiff(70000, 480))).toEqual({ width: 70000, height: 480 });
    expect(await measure('image/tiff', bigEndianTiff(640, 480).subarray(0, 30))).toBeNull();
  });

  test('a JPEG frame header behind 200 KB of EXIF is reached by skipping segments, reading a few bytes', async () => {
    const image = jpeg(4000, 3000, 200_000);
    const reader = readerOf(image);
    expect(await readImageDimensions('image/jpeg', reader.readAt)).toEqual({ width: 4000, height: 3000 });
    expect(reader.bytesRead()).toBeLessThan(100);
  });

  test('truncated or malformed headers, and other types, give null', async () => {
    expect(await measure('image/png', png(4, 4).subarray(0, 20))).toBeNull();
    expect(await measure('image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 2]))).toBeNull();
    expect(await measure('image/jpeg', Buffer.from([0xff, 0xd8, 0x00, 0x00]))).toBeNull();
    expect(await measure('image/webp', Buffer.from('RIFF\0\0\0\0WEBPJUNK\0\0\0\0\0\0\0\0\0\0\0\0\0\0', 'latin1'))).toBeNull();
    expect(await measure('application/pdf', Buffer.from('%PDF-1.7'))).toBeNull();
  });

  test('a JPEG made only of empty segments is given up on, not walked forever', async () => {
    const endless = Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(4 * 2000, 0).fill(Buffer.from([0xff, 0xe2, 0x00, 0x02]))]);
    expect(await measure('image/jpeg', endless)).toBeNull();
  });
});
