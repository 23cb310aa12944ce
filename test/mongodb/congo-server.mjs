/**
 * The in-process MongoDB wire-compatible server (CongoDB, from @push.rocks/smartmongo, in-memory
 * storage) for test runs without MONGODB_URL. Prints `mongodb://127.0.0.1:<port>` once it listens
 * and stops on SIGTERM. `node congo-server.mjs [port [folder]]`: a free port unless one is given
 * (0), in memory unless a folder is given to keep the data in across restarts. An ES module of its own: jest's module system cannot load the package.
 * With FOLIO_CONGO_REPLICA_SET=<name> it says it is the primary of a one-member replica set of that name, so
 * that the driver runs transactions on it: CongoDB executes their operations (without atomicity), which
 * shows that writes made in a session work end to end.
 * Dev-only: Folio never imports it.
 */
import { CongoServer } from '@push.rocks/smartmongo/dist_ts/congodb/index.js';
import { HelloHandler } from '@push.rocks/smartmongo/dist_ts/congodb/server/handlers/HelloHandler.js';
import { createServer } from 'node:net';

// CongoServer reports the port it was given: take a free one first
const [, , givenPort, folder] = process.argv;
const port = Number(givenPort) > 0 ? Number(givenPort) : await new Promise((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address();
    probe.close(() => resolve(free));
  });
});
const replicaSet = process.env.FOLIO_CONGO_REPLICA_SET;
if (replicaSet) {
  const standalone = HelloHandler.prototype.handle;
  const me = `127.0.0.1:${port}`;
  HelloHandler.prototype.handle = async function (context) {
    return { ...(await standalone.call(this, context)), setName: replicaSet, setVersion: 1, hosts: [me], me, primary: me, secondary: false };
  };
}
const server = new CongoServer({ host: '127.0.0.1', port, ...(folder ? { storage: 'file', storagePath: folder } : { storage: 'memory' }) });
await server.start();
process.stdout.write(`mongodb://127.0.0.1:${port}\n`);
const stop = () => server.stop().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// the test run is gone: no one left to stop it
process.stdin.on('end', stop);
process.stdin.resume();
