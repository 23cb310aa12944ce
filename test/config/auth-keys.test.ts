import { configErrorLines, loadFrom } from './config-dir';

/** Keys that authentication reads: the API token salt from the environment, JWT lifetimes as durations. */

test('API_TOKEN_SALT fills apiTokenSalt when config/admin does not set it', () => {
  expect(loadFrom({}, { env: { API_TOKEN_SALT: 'from-env' } }).admin.apiTokenSalt).toBe('from-env');
  expect(loadFrom({ 'admin.json': { apiToken: { salt: 'from-file' } } }, { env: { API_TOKEN_SALT: 'from-env' } }).admin.apiTokenSalt).toBe('from-file');
  expect(loadFrom({}, { env: { API_TOKEN_SALT: '' } }).admin.apiTokenSalt).toBeUndefined();
});

test('jwt.expiresIn is a duration with a unit', () => {
  const plugins = (expiresIn: unknown) => ({ 'plugins.json': { 'users-permissions': { config: { jwt: { expiresIn } } } } });
  expect(loadFrom(plugins('12h')).usersPermissions.jwt.expiresIn).toBe('12h');
  for (const wrong of ['3600', '30 days', '0d', 'soon']) {
    expect(configErrorLines(plugins(wrong))).toEqual([
      `config/plugins.json: users-permissions.config.jwt.expiresIn must be a duration such as "30d", "12h" or "90m", got "${wrong}"`,
    ]);
  }
});
