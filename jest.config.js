/**
 * FOLIO_TEST_STORES picks what a run covers: unset, the files asked for on the embedded store (or on
 * MongoDB with FOLIO_TEST_DATABASE=mongodb); `mongodb`, the files of ON_MONGODB on MongoDB (`npm run test:mongodb`);
 * `all`, every file and then those again on MongoDB, as two projects of one run (`npm test`): one start-up and
 * one MongoDB, and the two workers kept busy to the end instead of waiting on a run's last files twice.
 */
const base = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
};

/** the files whose servers run again on MongoDB: each a path's beginning, as `jest test/e2e/rest-` would take it */
const ON_MONGODB = [
  'test/e2e/webhook',
  'test/e2e/subscriptions',
  'test/e2e/rest-',
  'test/e2e/graphql-crud',
  'test/e2e/graphql-relations',
  'test/e2e/auth-',
  'test/e2e/users-admin',
  'test/e2e/publication-filter',
  'test/e2e/password-attributes',
  'test/e2e/upload-api',
  'test/e2e/v4-clients',
  'test/hostile/prototype-keys',
  'test/hostile/component-ids',
  'test/e2e/response-cache',
  'test/e2e/metrics',
  'test/e2e/component-relations',
  'test/e2e/nested-component-relations',
  'test/e2e/morph-relations',
  'test/e2e/absent-values',
  'test/e2e/scalar-filter-inputs',
  'test/e2e/project-routes',
  'test/e2e/roles',
  'test/e2e/zone-populate-paths',
  'test/e2e/admin-user-relations',
  'test/e2e/plugin-type-relations',
  'test/e2e/user-self-relation',
  'test/e2e/validation-messages',
  'test/e2e/aggregation',
];

/** run alone after the parallel run of `npm test` (test/support/timed-apart.js) */
const APART = require('./test/support/timed-apart');

const embedded = { ...base, displayName: 'embedded', testPathIgnorePatterns: ['/node_modules/', ...APART.map((start) => `<rootDir>/${start}`)] };
// FOLIO_TEST_DATABASE=mongodb set in each test file's own process.env (jest gives every file a copy)
const mongodb = { ...base, displayName: 'mongodb', testMatch: ON_MONGODB.map((start) => `<rootDir>/${start}*.test.ts`), setupFiles: ['<rootDir>/test/support/on-mongodb.js'] };

const projects = { all: [embedded, mongodb], mongodb: [mongodb] }[process.env.FOLIO_TEST_STORES ?? ''];

/** @type {import('jest').Config} */
module.exports = {
  ...(projects ? { projects } : base),
  // an option of the run, not of a project: jest would take its default of 5 s in each project
  testTimeout: 30000,
  // every core: jest's default leaves one idle, which on a 2-core CI machine halves the suite's speed
  maxWorkers: '100%',
  // a MongoDB for every run: MONGODB_URL's, or an in-process one
  globalSetup: '<rootDir>/test/mongodb/global-setup.js',
  globalTeardown: '<rootDir>/test/mongodb/global-teardown.js',
};
