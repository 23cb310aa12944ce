import { randomBytes } from 'node:crypto';

/**
 * Names of uploaded files. The name a client gives is only metadata, cleaned of paths and
 * control characters; the file on disk is always `<hash><ext>`, built from safe characters and
 * a random part, so nothing the client sends ever becomes part of a path.
 */

const MAX_NAME_LENGTH = 255;
const MAX_SLUG_LENGTH = 100;

// C0/C1 controls and the bidirectional overrides that can make `evil‮gnp.exe` display as `evil.exe.png`.
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The last path segment of what the client sent, without control characters; `file` when nothing is left. */
export const sanitizeFileName = (raw: string): string => {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const clean = [...base.normalize('NFC').replace(UNSAFE_CHARACTERS, '').trim()].slice(0, MAX_NAME_LENGTH).join('').trim();
  return clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
};

const EXTENSION = /\.[A-Za-z0-9]{1,16}$/;

/** `.png` for `photo.png`; empty when the name has no extension made of safe characters. */
export const extensionOf = (name: string): string => EXTENSION.exec(name)?.[0] ?? '';

/** Strapi's shape, `<slug of the base name>_<10 random hex>`: readable in URLs, unguessable. */
export const createFileHash = (name: string): string => {
  const ext = extensionOf(name);
  const base = ext ? name.slice(0, -ext.length) : name;
  const slug = base
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_SLUG_LENGTH);
  return `${slug || 'file'}_${randomBytes(5).toString('hex')}`;
};

/** What a stored file may be called on disk; anything else is refused before it reaches a path. */
export const STORED_NAME = /^[A-Za-z0-9_]+(\.[A-Za-z0-9]{1,16})?$/;
