import { validationErrors } from '../errors/graphql-errors';
import { sanitizeFileName } from './file-names';
import { isRecord } from '../common/is-record';

/**
 * `fileInfo`: the metadata a client sends beside its files, as one JSON object, a JSON array
 * matched to the files by position, or one JSON object per `fileInfo` field. Validated as
 * Strapi does (only `name`, `alternativeText`, `caption`; strings or null); names are cleaned
 * like file names.
 */

export interface FileInfo {
  name?: string;
  alternativeText?: string | null;
  caption?: string | null;
}

const KEYS = ['name', 'alternativeText', 'caption'] as const;

const invalid = (message: string, path: string[], value?: unknown): never => {
  throw validationErrors([{ path, message, name: 'ValidationError', value }]);
};


/** One entry, already parsed from JSON (GraphQL's `FileInfoInput` arrives this way too). */
export const checkFileInfo = (value: unknown, path: string[]): FileInfo => {
  if (!isRecord(value)) return invalid(`${path.join('.')} must be an object`, path, value);
  const unknown = Object.keys(value).filter((key) => !(KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) invalid(`${path.join('.')} field has unspecified keys: ${unknown.join(', ')}`, path, value);
  const info: FileInfo = {};
  for (const key of KEYS) {
    const field = value[key];
    if (field === undefined) continue;
    if (field !== null && typeof field !== 'string') invalid(`${[...path, key].join('.')} must be a string`, [...path, key], field);
    if (key === 'name') {
      // A null name keeps the current one, as in Strapi.
      if (typeof field === 'string') info.name = sanitizeFileName(field);
    } else {
      info[key] = field as string | null;
    }
  }
  return info;
};

const parseJson = (text: string, path: string[]): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return invalid(`${path.join('.')} must be valid JSON`, path, text);
  }
};

/** The entries for `fileCount` files (fewer entries than files is fine; more is a mistake). */
export const parseFileInfo = (fields: string[], fileCount: number): FileInfo[] => {
  if (fields.length === 0) return [];
  if (fields.length === 1) {
    const value = parseJson(fields[0], ['fileInfo']);
    if (!Array.isArray(value)) {
      if (fileCount > 1) invalid('fileInfo must be an array with one entry per file when several files are sent', ['fileInfo'], value);
      return [checkFileInfo(value, ['fileInfo'])];
    }
    if (value.length > fileCount) invalid(`fileInfo has ${value.length} entries for ${fileCount} file(s)`, ['fileInfo']);
    return value.map((entry, index) => checkFileInfo(entry, ['fileInfo', String(index)]));
  }
  if (fields.length > fileCount) invalid(`fileInfo has ${fields.length} entries for ${fileCount} file(s)`, ['fileInfo']);
  return fields.map((field, index) => checkFileInfo(parseJson(field, ['fileInfo', String(index)]), ['fileInfo', String(index)]));
};
