import type { UpdateSpec } from './types';

const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

function assertUpdatablePath(path: string): void {
  if (typeof path !== 'string' || path.split('.').some((segment) => segment === '' || segment.startsWith('$') || FORBIDDEN_SEGMENTS.has(segment))) {
    throw new TypeError(`cannot update field "${String(path)}"`);
  }
}

/** Refuses update paths that are operators, empty segments or prototype keys, the same way on both engines. */
export function assertSafeUpdate(update: UpdateSpec): void {
  for (const path of Object.keys(update.$set ?? {})) assertUpdatablePath(path);
  for (const path of update.$unset ?? []) assertUpdatablePath(path);
}
