import { setFlagsFromString } from 'node:v8';

/** V8's own maximum on 64 bits: what the store's threads get, whatever the main thread was started with */
const THREAD_SEMI_SPACE_MB = 16;

/**
 * bin/folio.js gives the main thread's heap 64 MB semi-spaces (docs/cli.md), and V8 reads that flag as each
 * isolate is created: every reader thread took them too, 128 MB of young generation each under large reads, which
 * a Worker's resourceLimits.maxYoungGenerationSizeMb does not override (test/app/thread-heaps). Set back to V8's
 * default before the store starts its threads, it leaves the main thread's heap as it is.
 */
export function threadsTakeDefaultSemiSpaces(): void {
  setFlagsFromString(`--max-semi-space-size=${THREAD_SEMI_SPACE_MB}`);
}
