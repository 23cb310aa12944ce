import { DURATION_PATTERN } from '../config/file-schemas';

/** `"30d"`, `"12h"`, `"90m"`, `"45s"`, `"2w"`, `"1y"` → milliseconds; undefined for anything else. */

const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  y: 365 * 86_400_000,
};

export const parseDuration = (text: string): number | undefined => {
  const match = DURATION_PATTERN.exec(text.trim());
  if (!match) return undefined;
  const milliseconds = Number(match[1]) * UNIT_MS[match[2]];
  return Number.isSafeInteger(milliseconds) && milliseconds > 0 ? milliseconds : undefined;
};
