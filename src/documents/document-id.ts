import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
// 252 is the largest multiple of 36 below 256: rejecting bytes above it keeps the draw uniform.
const LIMIT = 252;

/** A new documentId: 24 lowercase alphanumerics, as Strapi makes them. */
export const createDocumentId = (): string => {
  let id = '';
  while (id.length < 24) {
    for (const byte of randomBytes(32)) {
      if (byte < LIMIT && id.length < 24) id += ALPHABET[byte % 36];
    }
  }
  return id;
};
