import { loadFrom } from './config-dir';

/** `server.metrics`: whether `/metrics` is served, and behind which token. */

describe('server.metrics', () => {
  test('true serves /metrics openly, { token } behind that bearer token', () => {
    expect(loadFrom({ 'server.json': { metrics: true } }).server.metrics).toEqual({});
    expect(loadFrom({ 'server.json': { metrics: { token: 'secret-metrics-token' } } }).server.metrics).toEqual({ token: 'secret-metrics-token' });
    expect(loadFrom({ 'server.json': { metrics: false } }).server.metrics).toBe(false);
  });

  test('a token is not echoed when it is wrong', () => {
    expect(() => loadFrom({ 'server.json': { metrics: { token: 42 } } })).toThrow(/metrics\.token must be a non-empty string$/m);
  });
});
