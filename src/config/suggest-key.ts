function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/** The known key a misspelling most likely meant: same letters in another case, or at most two edits away. */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  const sameLetters = known.find((candidate) => candidate.toLowerCase() === key.toLowerCase());
  if (sameLetters) return sameLetters;
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance <= Math.min(2, Math.floor(candidate.length / 2)) && (!best || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}
