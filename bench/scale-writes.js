'use strict';
/**
 * The background writes of the scale benchmark (`--writes N`): N REST updates a second, each on a
 * random seeded article, changing its views and the order of its title's words (so the titles keep
 * the words the search terms were chosen from). Sent on a schedule whatever the answers' pace.
 */
const { TOKEN } = require('./folio-process');
const { titleWords, titleOf } = require('./scale-vocabulary');

const TICK_MS = 10;

/** Folio's way of writing an update: a REST PUT of `data` to seeded article `index` */
const restUpdate = async (url, { documentIds }, index, data) => {
  const response = await fetch(`${url}/api/articles/${documentIds[index]}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ data }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`PUT /api/articles/${documentIds[index]} answered ${response.status}: ${text.slice(0, 300)}`);
};

const updateOne = (url, manifest, update) => {
  const index = Math.floor(Math.random() * manifest.documentIds.length);
  const words = titleWords(index);
  const data = { title: titleOf(words, 1 + Math.floor(Math.random() * (words.length - 1))), views: Math.floor(Math.random() * manifest.viewsRange) };
  return update(url, manifest, index, data);
};

/**
 * Starts `perSecond` updates a second, each sent by `update(url, manifest, index, { title, views })` (Folio's REST
 * PUT unless given: the peer benchmark writes to other servers their own way); `stop()` waits for those sent and
 * resolves with `{ sent, succeeded, failures }`.
 */
const startWrites = (url, manifest, perSecond, update = restUpdate) => {
  const started = Date.now();
  const inFlight = new Set();
  const failures = [];
  let sent = 0;
  let succeeded = 0;
  const send = () => {
    sent += 1;
    const pending = updateOne(url, manifest, update)
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
