'use strict';
/**
 * Jest global setup: every run has a MongoDB. With MONGODB_URL, that server (a real one); without,
 * CongoDB in a child process (test/mongodb/congo-server.mjs). Tests read the address from
 * FOLIO_TEST_MONGODB_URL, and FOLIO_TEST_MONGODB_KIND ('mongodb' | 'congo') tells them whether
 * the server's known gaps apply (see test/mongodb/server-kind.ts).
 */
const { spawn } = require('node:child_process');
const { join } = require('node:path');

module.exports = async () => {
  if (process.env.MONGODB_URL) {
    process.env.FOLIO_TEST_MONGODB_URL = process.env.MONGODB_URL;
    process.env.FOLIO_TEST_MONGODB_KIND = 'mongodb';
    return;
  }
  const child = spawn(process.execPath, [join(__dirname, 'congo-server.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /mongodb:\/\/\S+/.exec(out);
      if (match) resolve(match[0]);
    });
    child.once('exit', (code) => reject(new Error(`the in-process MongoDB server exited (${code}) before it listened`)));
  });
  // The driver's monitor streams its hello with moreToCome once a server reports a topologyVersion; CongoDB
  // ends such a stream, and the driver then clears the pool under whatever operations were running
  // ("Server ended moreToCome unexpectedly"): polling monitors the in-process server as well.
  process.env.FOLIO_TEST_MONGODB_URL = `${url}/?serverMonitoringMode=poll`;
  process.env.FOLIO_TEST_MONGODB_KIND = 'congo';
  globalThis.__folioCongo = child;
};
