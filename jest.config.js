// Servers the tests start as processes are one process each (`server.workers` would fork one per core): the
// worker-group tests ask for theirs.
process.env.FOLIO_WORKERS ??= '1';

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  testTimeout: 30000,
  // every core: jest's default leaves one idle, which on a 2-core CI machine halves the suite's speed
  maxWorkers: '100%',
  // a MongoDB for every run: MONGODB_URL's, or an in-process one
  globalSetup: '<rootDir>/test/mongodb/global-setup.js',
  globalTeardown: '<rootDir>/test/mongodb/global-teardown.js',
};
