'use strict';
/** jest setupFiles of the `mongodb` project (jest.config.js): this test file's servers store on the run's MongoDB. */
process.env.FOLIO_TEST_DATABASE = 'mongodb';
