'use strict';
/**
 * The words of the scale benchmark's article titles: 2,000 made-up words, drawn Zipf-like (a few
 * words in many titles, most in few, as in real text). Everything is derived from fixed seeds, so
 * article i has the same title words in the seeding process and in the benchmark that updates it.
 */

const VOCABULARY_SIZE = 2000;
const CONSONANTS = 'bdfgklmnprstvz';
const VOWELS = 'aeiou';

/** mulberry32: a small seeded generator of numbers in [0, 1) */
const randomSource = (seed) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
};

const randomInt = (random, below) => Math.floor(random() * below);

/** `count` distinct words of two or three consonant-vowel syllables */
const makeVocabulary = (count) => {
  const random = randomSource(11);
  const syllable = () => CONSONANTS[randomInt(random, CONSONANTS.length)] + VOWELS[randomInt(random, VOWELS.length)];
  const words = new Set();
  while (words.size < count) words.add(syllable() + syllable() + (random() < 0.5 ? syllable() : ''));
  return [...words];
};

const VOCABULARY = makeVocabulary(VOCABULARY_SIZE);

/** cumulative Zipf weights (exponent 1): the word of rank k is drawn in proportion to 1/k */
const CUMULATIVE = (() => {
  const weights = VOCABULARY.map((_, rank) => 1 / (rank + 1));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let running = 0;
  return weights.map((weight) => (running += weight / total));
})();

const zipfWord = (random) => {
  const draw = random();
  let low = 0;
  let high = CUMULATIVE.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (CUMULATIVE[middle] < draw) low = middle + 1;
    else high = middle;
  }
  return VOCABULARY[low];
};

/** The 4 to 8 title words of article `index` (the same on every call). */
const titleWords = (index) => {
  const random = randomSource(Math.imul(index + 1, 0x9e3779b1));
  return Array.from({ length: 4 + randomInt(random, 5) }, () => zipfWord(random));
};

/** A title made of `words`, starting at `shift`: an update changes the title, never which words it holds. */
const titleOf = (words, shift = 0) => {
  const ordered = [...words.slice(shift), ...words.slice(0, shift)];
  return ordered.map((word, position) => (position === 0 ? word[0].toUpperCase() + word.slice(1) : word)).join(' ');
};

module.exports = { VOCABULARY, randomSource, randomInt, titleWords, titleOf };
