#!/usr/bin/env node
'use strict';
const { main } = require('../dist/src/cli/main.js');

main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`${error && error.message ? error.message : String(error)}\n`);
  process.exit(1);
});
