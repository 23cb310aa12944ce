'use strict';
/**
 * The background writes of the scale benchmark (`--writes N`): N REST updates a second, each on a
 * random seeded article, changing its views and the order of its title's words (so the titles keep
 * the words the search terms were chosen from). Sent on a schedule whatever the answers' pace.
 */
const { TOKEN } = require('./folio-process');
const { titleWords, titleOf } = require('./scale-vocabulary');

const TICK_MS = 10;

const updateOne = async (url, { documentIds, viewsRange }) => {
  const index = Math.floor(Math.random() * documentIds.length);
  const words = titleWords(index);
  const data = { title: titleOf(words, 1 + Math.floor(Math.random() * (words.length - 1))), views: Math.floor(Math.random() * viewsRange) };
  const response = await fetch(`${url}/api/articles/${documentIds[index]}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ data }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`PUT /api/articles/${documentIds[index]} answered ${response.status}: ${text.slice(0, 300)}`);
};

/** Starts `perSecond` updates a second; `stop()` waits for those sent and resolves with `{ sent, succeeded, failures }`. */
const startWrites = (url, manifest, perSecond) => {
  const started = Date.now();
  const inFlight = new Set();
  const failures = [];
  let sent = 0;
  let succeeded = 0;
  const send = () => {
    sent += 1;
    const pending = updateOne(url, manifest)
      .then(() => (succeeded += 1), (error) => failures.push(error.message))
      .finally(() => inFlight.delete(pending));
    inFlight.add(pending);
  };
  // catches up after a late tick, so a busy event loop does not lower the rate
  const timer = perSecond > 0 ? setInterval(() => { while (sent < Math.floor(((Date.now() - started) / 1000) * perSecond)) send(); }, TICK_MS) : undefined;
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      return { sent, succeeded, failures };
    },
  };
};

module.exports = { startWrites };
