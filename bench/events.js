'use strict';
/**
 * Figures of the content events (docs/events.md), printed by bench/run.js: write throughput with
 * two webhooks configured against none (target ≥ 80 %), and the latency of one write's event to
 * 1,000 SSE subscribers, from the write's acknowledgement to each delivery (target p99 ≤ 200 ms).
 */
const { createServer } = require('node:http');

const SUBSCRIBERS = 1000;
/** the per-client subscription limit is 100: ten tokens hold a hundred each */
const TOKENS = 10;
const WRITES = 20;

const startReceiver = () =>
  new Promise((resolve) => {
    let received = 0;
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        received += 1;
        response.writeHead(204).end();
      });
    });
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}/hook`, received: () => received, close: () => new Promise((done) => server.close(done)) }));
  });

const tagWrites = (url, token) => ({
  url: `${url}/api/tags`,
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  body: JSON.stringify({ data: { name: 'bench tag', weight: 1 } }),
});

/** An SSE subscription: calls `onName(name, at)` for each tag created, until `close()`. */
const subscribe = async (url, token, onName) => {
  const controller = new AbortController();
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: 'subscription { tagCreated { name } }' }),
    signal: controller.signal,
  });
  if (response.status !== 200) throw new Error(`subscription answered ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = message.split('\n').find((line) => line.startsWith('data:'));
          if (message.startsWith('event: next') && data) onName(JSON.parse(data.slice(5)).data.tagCreated.name, performance.now());
        }
      }
    } catch {
      // closed
    }
  })();
  return () => controller.abort();
};

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const fanOut = async (url, token) => {
  const deliveries = new Map();
  const closers = [];
  for (let index = 0; index < SUBSCRIBERS; index += 1) {
    closers.push(await subscribe(url, `fanout-token-${index % TOKENS}-0123456789abcdef`, (name, at) => deliveries.get(name)?.push(at)));
  }
  // every subscription registered before the first write
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const latencies = [];
  let missing = 0;
  for (let write = 0; write < WRITES; write += 1) {
    const name = `fanout ${write}`;
    const arrivals = [];
    deliveries.set(name, arrivals);
    const response = await fetch(`${url}/api/tags`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ data: { name } }) });
    const acknowledged = performance.now();
    if (response.status !== 201) throw new Error(`write answered ${response.status}`);
    const deadline = Date.now() + 5000;
    while (arrivals.length < SUBSCRIBERS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    missing += SUBSCRIBERS - arrivals.length;
    for (const at of arrivals) latencies.push(Math.max(0, at - acknowledged));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (const close of closers) close();
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies[latencies.length - 1], missing };
};

const eventFigures = async ({ root, startFolio, stop, measure, token }) => {
  const receivers = [await startReceiver(), await startReceiver()];
  const webhooks = receivers.map((receiver, index) => ({ name: `bench-${index}`, url: receiver.url, events: ['entry.create'] }));
  const apiTokens = Array.from({ length: TOKENS }, (_, index) => ({ name: `fanout-${index}`, type: 'read-only', accessKey: `fanout-token-${index}-0123456789abcdef` }));
  let plain;
  let hooked;
  try {
    plain = await startFolio('bin/folio.js', root, 'events-plain', { seeded: false, extra: { apiTokens } });
    hooked = await startFolio('bin/folio.js', root, 'events-webhooks', { seeded: false, extra: { webhooks } });
    await measure('warm-up', { ...tagWrites(plain.url, token), duration: 2 });
    const without = await measure('REST create tag, no webhooks', tagWrites(plain.url, token));
    await measure('warm-up', { ...tagWrites(hooked.url, token), duration: 2 });
    const withHooks = await measure('REST create tag, two webhooks', tagWrites(hooked.url, token));
    const fan = await fanOut(plain.url, token);
    const delivered = receivers.map((receiver) => receiver.received()).join(' + ');
    return [
      '| content events | measured | target |',
      '| --- | ---: | --- |',
      `| writes, no webhooks | ${Math.round(without.rps)} req/s | |`,
      `| writes, two webhooks (${delivered} deliveries during the run) | ${Math.round(withHooks.rps)} req/s, ${((withHooks.rps / without.rps) * 100).toFixed(1)} % | ≥ 80 % |`,
      `| one write to ${SUBSCRIBERS} SSE subscribers, ${WRITES} writes: acknowledgement → delivery | p50 ${fan.p50.toFixed(0)} ms, p99 ${fan.p99.toFixed(0)} ms, max ${fan.max.toFixed(0)} ms, ${fan.missing} missing | p99 ≤ 200 ms |`,
    ];
  } finally {
    await stop(plain);
    await stop(hooked);
    await Promise.all(receivers.map((receiver) => receiver.close()));
  }
};

module.exports = { eventFigures };
