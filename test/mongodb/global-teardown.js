'use strict';
/** Stops the in-process MongoDB server global-setup started, if it did. */
module.exports = async () => {
  const child = globalThis.__folioCongo;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
};
