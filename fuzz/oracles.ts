import type { FuzzAnswer } from './fuzz-request';

/**
 * What no answer of Folio's may be, whatever was asked: a 5xx, an INTERNAL_SERVER_ERROR, slower
 * than 1 s, or a body that shows the server's insides (a stack frame, a file path of its own). 1 s,
 * not more: every costly shape the fuzzer sends (costly-shapes.ts) is refused or answered in
 * milliseconds since issue 35, and one that takes seconds again is how that regression shows.
 */

export const MAX_ANSWER_MS = 1000;

export const answerProblem = (answer: FuzzAnswer, serverRoot: string): string | undefined => {
  if (answer.status === 0) return 'no answer (connection closed or timed out)';
  if (answer.status >= 500) return `HTTP ${answer.status}`;
  if (answer.ms > MAX_ANSWER_MS) return `answered after ${answer.ms} ms`;
  if (answer.body.includes('INTERNAL_SERVER_ERROR')) return 'INTERNAL_SERVER_ERROR in the body';
  if (/\bat [\w$.<>]+ \(|\bat (?:async )?\/[\w/.-]+:\d+:\d+/.test(answer.body)) return 'a stack frame in the body';
  if (answer.body.includes(serverRoot) || answer.body.includes('node_modules/')) return 'a server path in the body';
  return undefined;
};
