'use strict';
// Preloaded (`node -r`) by test/cli/start-modules: writes the files the process loaded, one per line, to
// FOLIO_LOADED_MODULES_FILE when it exits.
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  writeFileSync(process.env.FOLIO_LOADED_MODULES_FILE, Object.keys(require.cache).join('\n'));
});
