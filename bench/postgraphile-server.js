'use strict';
/**
 * PostGraphile 5 as its documentation sets it up (the Amber preset, postgraphile-plugin-connection-filter's
 * preset, grafserv on node:http), in production mode: no GraphiQL, no schema watching, no plan explanations.
 * Started by the peer benchmark with NODE_PATH at the temporary folder PostGraphile was installed into and
 * DATABASE_URL at the temporary cluster; prints its address once listening, as bench/bare-server.js does.
 *
 * PostGraphile 5 declares Node.js >= 22; the one thing it uses that Node.js 20 lacks is Promise.withResolvers
 * (grafast, @dataplan/pg), defined here as the specification does before PostGraphile is loaded.
 */
if (typeof Promise.withResolvers !== 'function') {
  Promise.withResolvers = function withResolvers() {
    let resolve;
    let reject;
    const promise = new this((settle, fail) => {
      resolve = settle;
      reject = fail;
    });
    return { promise, resolve, reject };
  };
}

const { createServer } = require('node:http');
const { postgraphile } = require('postgraphile');
const { grafserv } = require('postgraphile/grafserv/node');
const { PostGraphileAmberPreset } = require('postgraphile/presets/amber');
const { makePgService } = require('postgraphile/adaptors/pg');
const { PostGraphileConnectionFilterPreset } = require('postgraphile-plugin-connection-filter');

const preset = {
  extends: [PostGraphileAmberPreset, PostGraphileConnectionFilterPreset],
  pgServices: [makePgService({ connectionString: process.env.DATABASE_URL, schemas: ['public'] })],
  grafserv: { graphiql: false, watch: false },
  grafast: { explain: false },
};

const instance = postgraphile(preset);
const server = createServer();
instance
  .createServ(grafserv)
  .addTo(server)
  .then(() => server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`)))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
