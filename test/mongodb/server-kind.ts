/**
 * The MongoDB of this test run (test/mongodb/global-setup.js): a real server given by MONGODB_URL,
 * or the in-process CongoDB, whose known gaps (unique indexes not enforced, another sort order,
 * no transactions) tests skip with their reason said once.
 */

export const MONGODB_TEST_URL = process.env.FOLIO_TEST_MONGODB_URL ?? '';
export const onCongo = process.env.FOLIO_TEST_MONGODB_KIND !== 'mongodb';
