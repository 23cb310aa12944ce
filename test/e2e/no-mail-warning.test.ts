import { defaultPlugins, startTestServer } from '../support/test-server';
import { stderrDuring } from '../support/stderr-lines';
import { call } from '../auth/http';

/**
 * Password reset and e-mail confirmation are public routes: a server with no e-mail provider says once, at
 * start, that they can mail nothing, unless `email.enabled: false` says so on purpose.
 */

const WARNING = /^folio: password reset and e-mail confirmation are open to anyone .* no e-mail provider is configured, so they answer 503: configure one with the `email` plugin in config\/plugins .*`email: \{ enabled: false \}`/;

const warningsIn = (written: string[]) => written.join('').split('\n').filter((line) => WARNING.test(line));

const startWith = (email: unknown) => stderrDuring(() => startTestServer({ config: { plugins: defaultPlugins({ email }) } }));

test('no e-mail provider: one warning line at start, none per request, and the routes still answer 503 for any address', async () => {
  const { result: server, written } = await startWith(undefined);
  try {
    expect(warningsIn(written)).toHaveLength(1);
    const { result: answers, written: later } = await stderrDuring(() =>
      Promise.all([
        call(server.url, 'POST', '/api/auth/forgot-password', { body: { email: 'nobody@example.com' } }),
        call(server.url, 'POST', '/api/auth/send-email-confirmation', { body: { email: 'nobody@example.com' } }),
        server.gql('mutation { forgotPassword(email: "nobody@example.com") { ok } }'),
      ]),
    );
    expect(answers.map((answer) => answer.status)).toEqual([503, 503, 503]);
    expect(answers[2].body).toMatchObject({ errors: [{ extensions: { code: 'SERVICE_UNAVAILABLE' } }] });
    expect(warningsIn(later)).toEqual([]);
  } finally {
    await server.stop();
  }
});

test('an e-mail provider configured: no warning', async () => {
  const nodemailer = { provider: 'nodemailer', providerOptions: { host: '127.0.0.1', port: 2525 }, settings: { defaultFrom: 'Folio <no-reply@example.com>' } };
  const { result: server, written } = await startWith({ config: nodemailer });
  await server.stop();
  expect(warningsIn(written)).toEqual([]);
  expect(written.join('')).not.toMatch(/e-mail provider/);
});

test('email.enabled: false (no e-mail, on purpose): no warning, and the routes answer 503 as without the plugin', async () => {
  const { result: server, written } = await startWith({ enabled: false });
  try {
    expect(warningsIn(written)).toEqual([]);
    expect((await call(server.url, 'POST', '/api/auth/forgot-password', { body: { email: 'nobody@example.com' } })).status).toBe(503);
  } finally {
    await server.stop();
  }
});
