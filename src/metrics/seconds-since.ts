/** Seconds since `started` (a `process.hrtime.bigint()`). */
export const secondsSince = (started: bigint): number => Number(process.hrtime.bigint() - started) / 1e9;
