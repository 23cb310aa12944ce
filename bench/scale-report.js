'use strict';
/**
 * The scale benchmark's markdown: a table per size (each read workload's req/s, p50, p99, share of
 * bare node:http in the same run, background writes) and a summary across sizes with the ratio of
 * the largest size's throughput to the smallest's.
 */

const { deepPages } = require('./scale-workloads');

const number = (value) => Math.round(value).toLocaleString('en-US');
const megabytes = (bytes) => (bytes < 10 * 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${number(bytes / 1024 / 1024)} MB`);
const share = (rps, bare) => `${((rps / bare.rps) * 100).toFixed(1)}%`;
/** a latency, or a dash when nothing was answered during the run */
const latency = (value, answered) => (answered > 0 ? String(value) : '—');

/** µs of CPU per answer, the whole server's (main thread's), or a dash where /proc gave none */
const cpuCell = (cpu) => (cpu ? `${number(cpu.group)} (${number(cpu.main)})` : '—');
const change = (now, before) => (before > 0 ? `${(((now - before) / before) * 100).toFixed(1)}%` : '—');

/** the baseline's columns of a row, when a baseline was measured */
const baselineCells = (row, bare) =>
  row.baseline
    ? ` ${number(row.baseline.rps)} | ${latency(row.baseline.p99, row.baseline.answered)} | ${share(row.baseline.rps, bare)} | ${change(row.rps, row.baseline.rps)} | ${cpuCell(row.baseline.cpu)} | ${row.cpu && row.baseline.cpu ? change(row.cpu.group, row.baseline.cpu.group) : '—'} |`
    : '';

/** one workload's rounds: how far the change stands from the spread of the rounds */
const roundsLine = ({ name, rounds }) => `- ${name}: ${rounds.map(({ current, baseline }) => `${number(current)}/${number(baseline)} (${change(current, baseline)})`).join(', ')}`;

/** Lines of the table of one size's `result` (see bench/scale.js). */
const sizeTable = ({ size, writes, duration, bare, rows, startupMs, rssAfterStart, rssAtEnd, folderBytes, baselineRef, rounds }) => [
  `### ${number(size)} articles: autocannon -c 50 -d ${duration}${writes > 0 ? `, ${writes} writes/s` : ''}, ${new Date().toISOString()}${baselineRef ? `; baseline ${baselineRef}, lower median of ${rounds} alternating rounds` : ''}`,
  '',
  `start-up ${number(startupMs)} ms · RSS ${megabytes(rssAfterStart)} after start, ${megabytes(rssAtEnd)} at the end · data folder ${megabytes(folderBytes)} · bare node:http ${number(bare.rps)} req/s (median of ${bare.samples.map(number).join(', ')}) · deep pages ${deepPages(size).from}–${deepPages(size).to}`,
  '',
  `| workload | req/s | p50 ms | p99 ms | vs bare | CPU µs/req (main) | writes ok |${baselineRef ? ' baseline req/s | baseline p99 ms | baseline vs bare | change | baseline CPU µs/req (main) | CPU change |' : ''}`,
  `| --- | ---: | ---: | ---: | ---: | ---: | ---: |${baselineRef ? ' ---: | ---: | ---: | ---: | ---: | ---: |' : ''}`,
  ...rows.map(
    (row) =>
      `| ${row.name} | ${number(row.rps)} | ${latency(row.p50, row.answered)} | ${latency(row.p99, row.answered)} | ${share(row.rps, bare)} | ${cpuCell(row.cpu)} | ${row.written.succeeded}/${row.written.sent} |${baselineCells(row, bare)}`,
  ),
  ...(rows.some(({ answered }) => answered === 0) ? ['', '— : no request was answered during the run'] : []),
  '',
  `CPU µs/req: the server's CPU time (every thread${baselineRef ? ', the median of the rounds' : ''}) over the run divided by its answers, the background writes' included; in parentheses its main thread's.`,
  ...(baselineRef ? ['', 'Rounds, req/s of the current build against the baseline\'s, in the order run (the first round current first, then alternating):', '', ...rows.map(roundsLine)] : []),
];

/** Lines of the table across sizes: req/s (share of bare) per workload and size, and the figures of each start. */
const summaryTable = (results) => {
  const first = results[0];
  const last = results[results.length - 1];
  const ratioColumn = results.length > 1;
  const header = ['workload', ...results.map(({ size }) => `${number(size)} articles`), ...(ratioColumn ? [`${number(last.size)} ÷ ${number(first.size)}`] : [])];
  const line = (cells) => `| ${cells.join(' | ')} |`;
  const lines = ['### Summary', '', line(header), line(header.map((_, index) => (index === 0 ? '---' : '---:')))];
  for (const [index, { name }] of first.rows.entries()) {
    const cells = results.map(({ rows, bare }) => `${number(rows[index].rps)} req/s (${share(rows[index].rps, bare)})`);
    const ratio = first.rows[index].rps > 0 ? (last.rows[index].rps / first.rows[index].rps).toFixed(2) : '—';
    lines.push(line([name, ...cells, ...(ratioColumn ? [ratio] : [])]));
  }
  const figures = [
    ['start-up', (result) => `${number(result.startupMs)} ms`],
    ['RSS after start', (result) => megabytes(result.rssAfterStart)],
    ['RSS at the end', (result) => megabytes(result.rssAtEnd)],
    ['data folder', (result) => megabytes(result.folderBytes)],
  ];
  for (const [name, cell] of figures) lines.push(line([name, ...results.map(cell), ...(ratioColumn ? [''] : [])]));
  return lines;
};

module.exports = { sizeTable, summaryTable };
