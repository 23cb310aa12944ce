import type sharpModule from 'sharp';
import type { FormatEnum } from 'sharp';
import type { StoredDocument } from '../storage/types';
import { THUMBNAIL_FORMAT } from '../config/file-schemas';
import { bytesToKilobytes, storedNameOf, URL_PREFIX, type FileRow, type ImageFormat, type ImageFormats } from './file-record';
import type { UploadProvider } from './upload-provider';

/**
 * Strapi's responsive images ("responsive friendly upload", on by default in Strapi 5): a raster
 * image gets a `thumbnail` and one smaller version per breakpoint it exceeds, stored beside it as
 * `<format>_<hash><ext>` and listed in the record's `formats`, which front ends built for Strapi
 * read (`formats.small.url`). sharp reads the original by path in the provider's workspace and
 * writes each version to its file there, one at a time, which is then stored: no upload is ever
 * held in memory whole, whatever its size.
 */

let loaded: typeof sharpModule | undefined;
/** sharp, loaded by the first image a format is made of or measured (0.12 s, libvips with it): not at every start */
const sharp = (...args: Parameters<typeof sharpModule>): ReturnType<typeof sharpModule> => {
  if (!loaded) {
    loaded = require('sharp') as typeof sharpModule;
    // libvips keeps recent operations with their pixels (up to 50 MB) to reuse them; every upload is a new image, so it would only hold memory.
    loaded.cache(false);
  }
  return loaded(...args);
};

/** A stored original, named as its record names it: its formats' names are made from these. */
export interface FormatSource {
  /** the record's `name` */
  name: string;
  hash: string;
  ext: string;
  /** the type judged from the content */
  mime: string;
}

export interface ImageFormatter {
  /**
   * Makes and stores the formats of `source`, which is in the provider's workspace; null when it is
   * no image sharp resizes or is too small for any. Never fails: a format that cannot be made is left
   * out and reported on stderr.
   */
  generate(source: FormatSource): Promise<ImageFormats | null>;
  /** removes the formats' files (a missing one is not an error) */
  remove(formats: ImageFormats | null): Promise<void>;
}

export type Breakpoints = Readonly<Record<string, number>>;

const THUMBNAIL_BOX = { width: 245, height: 156 };

// Strapi's FORMATS_TO_RESIZE. AVIF and SVG originals get no formats in Strapi either.
const RESIZABLE: ReadonlySet<keyof FormatEnum> = new Set<keyof FormatEnum>(['jpeg', 'png', 'webp', 'tiff', 'gif']);
// The sniffed types those formats have: any other file is never handed to sharp.
const RESIZABLE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/tiff', 'image/gif']);

interface Plan {
  key: string;
  box: { width: number; height: number };
}

/**
 * Strapi's rules: the thumbnail when the image exceeds its box, a breakpoint when it is smaller
 * than the image's width or height. Each is fitted inside its box, so none is ever enlarged.
 */
const plansFor = (width: number, height: number, breakpoints: Breakpoints): Plan[] => [
  ...(width > THUMBNAIL_BOX.width || height > THUMBNAIL_BOX.height ? [{ key: THUMBNAIL_FORMAT, box: THUMBNAIL_BOX }] : []),
  ...Object.entries(breakpoints)
    .filter(([, size]) => size < width || size < height)
    .map(([key, size]) => ({ key, box: { width: size, height: size } })),
];

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error)).trim().split('\n')[0];

export const createImageFormatter = (provider: UploadProvider, breakpoints: Breakpoints, log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): ImageFormatter => {
  const make = async (source: FormatSource, format: keyof FormatEnum, { key, box }: Plan): Promise<ImageFormat> => {
    const hash = `${key}_${source.hash}`;
    const storedName = storedNameOf({ hash, ext: source.ext });
    try {
      // The original's own encoding, whatever its extension says (a replacement keeps the replaced file's extension).
      const info = await sharp(provider.workspace.pathOf(storedNameOf(source)))
        .resize({ ...box, fit: 'inside' })
        .toFormat(format)
        .toFile(provider.workspace.pathOf(storedName));
      await provider.store(storedName);
      return { name: `${key}_${source.name}`, hash, ext: source.ext, mime: source.mime, path: null, width: info.width, height: info.height, size: bytesToKilobytes(info.size), sizeInBytes: info.size, url: `${URL_PREFIX}${storedName}` };
    } catch (error) {
      // sharp may have written part of the file before failing, or storing it failed.
      await provider.remove(storedName);
      throw error;
    }
  };

  const generate = async (source: FormatSource): Promise<ImageFormats | null> => {
    if (!RESIZABLE_TYPES.has(source.mime)) return null;
    const metadata = await sharp(provider.workspace.pathOf(storedNameOf(source)))
      .metadata()
      .catch((error: unknown) => {
        log(`upload: no formats for ${source.name}: ${messageOf(error)}`);
        return null;
      });
    if (!metadata || !RESIZABLE.has(metadata.format)) return null;
    const formats: ImageFormats = {};
    const failed: string[] = [];
    let reason = '';
    for (const plan of plansFor(metadata.width, metadata.height, breakpoints)) {
      try {
        formats[plan.key] = await make(source, metadata.format, plan);
      } catch (error) {
        failed.push(plan.key);
        reason ||= messageOf(error);
      }
    }
    if (failed.length > 0) log(`upload: ${source.name} is stored without its ${failed.join(', ')} format(s): ${reason}`);
    return Object.keys(formats).length > 0 ? formats : null;
  };

  return {
    generate,
    remove: async (formats) => {
      await Promise.all(Object.values(formats ?? {}).map((format) => provider.remove(storedNameOf(format))));
    },
  };
};

/**
 * The hashes of the originals whose format could be stored as `storedName` (`<format>_<hash><ext>`,
 * where both the format and the hash may hold `_`): every split is a candidate, records decide.
 */
const ownerHashCandidates = (storedName: string): string[] => {
  const base = storedName.replace(/\.[^.]*$/, '');
  const candidates: string[] = [];
  for (let at = base.indexOf('_'); at !== -1 && at < base.length - 1; at = base.indexOf('_', at + 1)) candidates.push(base.slice(at + 1));
  return candidates;
};

/** A filter for the records that may own formats stored under `storedNames` (to be checked with `formatsByStoredName`). */
export const formatOwnersFilter = (storedNames: string[]) => ({ hash: { $in: [...new Set(storedNames.flatMap(ownerHashCandidates))] } });

/** The format entries of `rows`, by the stored name of their file. */
export const formatsByStoredName = (rows: StoredDocument[]): Map<string, ImageFormat> =>
  new Map(rows.flatMap((row) => Object.values((row as FileRow).formats ?? {}).map((format): [string, ImageFormat] => [storedNameOf(format), format])));
