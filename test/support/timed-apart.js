/**
 * Files that bound the server's event-loop lag in wall time: `npm test` runs them after the parallel run, alone
 * (test/support/npm-test.sh; jest.config.js leaves them out of that run), so that they measure the server and
 * not its neighbours. Beside every other file, the floods test's server lagged 210–265 ms in three runs of one
 * day (its bound: 200); beside the hostile and storage files alone, 71–139 ms, before and after that day's changes.
 */
module.exports = ['test/hostile/event-loop-floods'];
