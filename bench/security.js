'use strict';
/**
 * Figures for the defences of issue 18, printed by bench/run.js after the throughput table:
 * the e-mail check's time on a 254-character address and on 100 KB of hostile input (both must
 * stay under 1 ms), and the server's RSS growth after 1,200 distinct 900 KB queries, once the
 * garbage of their answers is collected (the parse cache must not keep them: at most 100 MB).
 */
const { join } = require('node:path');
const { rssOf } = require('./folio-process');

const { isEmailAddress } = require(join(__dirname, '../dist/src/common/email-address.js'));

const microsPerCall = (value, calls) => {
  const started = process.hrtime.bigint();
  for (let index = 0; index < calls; index += 1) isEmailAddress(value);
  return Number(process.hrtime.bigint() - started) / 1000 / calls;
};


const parseCacheGrowth = async (url, pid, { queries = 1200, bytes = 900 * 1024, concurrency = 10 } = {}) => {
  const send = (index) =>
    fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // few tokens and many bytes, so every limit lets it reach the parser and the cache
      body: JSON.stringify({ query: `{ articles(filters: { title: { eq: "${String(index).padEnd(bytes, 'x')}" } }) { documentId } }` }),
    }).then((response) => response.arrayBuffer());
  await send(-1);
  const before = rssOf(pid);
  for (let start = 0; start < queries; start += concurrency) {
    await Promise.all(Array.from({ length: Math.min(concurrency, queries - start) }, (_, offset) => send(start + offset)));
  }
  const atEnd = rssOf(pid);
  // what stays: V8 returns garbage's pages once allocation quiets down (its memory reducer)
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  return { before, atEnd, after: rssOf(pid) };
};

/** `baseline`: an earlier build's server ({ url, pid }), whose parse-cache growth is shown beside */
const securityFigures = async (url, pid, baseline) => {
  const address = `${'a'.repeat(254 - '@example.com'.length)}@example.com`;
  const hostile = `a@${'.'.repeat(100_000)}@`;
  const lines = [
    `| e-mail check, 254 characters | ${microsPerCall(address, 100_000).toFixed(2)} µs | < 1 ms |`,
    `| e-mail check, a@ + 100,000 dots + @ | ${microsPerCall(hostile, 1_000).toFixed(2)} µs | < 1 ms |`,
  ];
  const MB = 1024 * 1024;
  const mb = (bytes) => `${(bytes / MB).toFixed(0)} MB`;
  const growth = ({ before, atEnd, after }) => `${mb(before)} → ${mb(after)} (+${mb(after - before)}; ${mb(atEnd)} at the last answer)`;
  lines.push(`| server RSS 10 s after 1,200 distinct 900 KB queries | ${growth(await parseCacheGrowth(url, pid))} | ≤ +100 MB |`);
  if (baseline) lines.push(`| the same, baseline build | ${growth(await parseCacheGrowth(baseline.url, baseline.pid))} | |`);
  return ['| defence | measured | target |', '| --- | ---: | --- |', ...lines];
};

module.exports = { securityFigures };
