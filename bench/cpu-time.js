'use strict';
/**
 * CPU time a server used, read from /proc (Linux). On a machine the load generator and other work share,
 * req/s moves by ±10 % between runs of one build, more than most changes to the pipeline; the CPU a request
 * costs the server moves far less, and is the figure a change to the work per request should move.
 */
const { readFileSync } = require('node:fs');

/** /proc's clock ticks a second (USER_HZ): 100 on Linux whatever the kernel's own tick */
const TICKS_PER_SECOND = 100;

/** user + system ticks of /proc's `stat` line at `path`, 0 once the process has gone */
const ticksOf = (path) => {
  let line;
  try {
    line = readFileSync(path, 'utf8');
  } catch {
    return 0;
  }
  // the command name, in parentheses, may hold spaces: fields are counted after its closing one (state is the first)
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
};

const childrenOf = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

/** ticks of `pid` (all its threads) and of its descendants: a group of worker processes is counted whole */
const groupTicks = (pid) => childrenOf(pid).reduce((sum, child) => sum + groupTicks(child), ticksOf(`/proc/${pid}/stat`));

/** CPU milliseconds used so far by `pid`'s group of processes, and by its main thread alone; undefined off Linux */
const cpuTimes = (pid) => {
  const group = groupTicks(pid);
  if (group === 0) return undefined;
  return { group: (group * 1000) / TICKS_PER_SECOND, main: (ticksOf(`/proc/${pid}/task/${pid}/stat`) * 1000) / TICKS_PER_SECOND };
};

/** microseconds of CPU per answer between two `cpuTimes` readings: `{ group, main }`, or undefined */
const cpuPerAnswer = (before, after, answered) =>
  before && after && answered > 0 ? { group: ((after.group - before.group) * 1000) / answered, main: ((after.main - before.main) * 1000) / answered } : undefined;

module.exports = { cpuTimes, cpuPerAnswer, childrenOf };
