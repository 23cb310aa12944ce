import { GraphQLError } from 'graphql';
import { defaultConfig } from '../../src/config/defaults';
import { createAccountMails } from '../../src/users/account-mail';
import { EmailDeliveryError, type EmailMessage, type EmailProvider } from '../../src/email/email-provider';

/** The mails built from the templates, and the 503s of what cannot be mailed (the provider is a list of what it was given). */

const keeping = (sent: EmailMessage[], fail?: Error): EmailProvider => ({
  sendMail: async (message) => {
    if (fail) throw fail;
    sent.push(message);
  },
  close: () => undefined,
});
const user = { id: 7, username: 'ann<b>', email: 'ann@example.com' };
const config = () => {
  const base = defaultConfig();
  return { ...base, server: { ...base.server, url: 'https://api.example.com/' }, usersPermissions: { ...base.usersPermissions, emailResetPassword: 'https://front.example.com/reset?from=mail&lang=en' } };
};
const errorOf = (run: () => unknown): GraphQLError => {
  try {
    run();
  } catch (error) {
    return error as GraphQLError;
  }
  throw new Error('nothing was thrown');
};

test("the reset mail: Strapi's template with the page and the code, values escaped in the HTML only", async () => {
  const sent: EmailMessage[] = [];
  const base = config();
  const templates = { ...base.usersPermissions.emailTemplates, resetPassword: { ...base.usersPermissions.emailTemplates.resetPassword, subject: 'For <%= USER.username %>', from: 'Help <help@example.com>' } };
  const mails = createAccountMails({ ...base, usersPermissions: { ...base.usersPermissions, emailTemplates: templates } }, keeping(sent));
  await mails.resetPassword.send(user, 'k1.c0de');
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({ to: 'ann@example.com', from: 'Help <help@example.com>', replyTo: undefined, subject: 'For ann<b>' });
  expect(sent[0].text).toContain('<p>https://front.example.com/reset?from=mail&lang=en?code=k1.c0de</p>');
  expect(sent[0].html).toContain('<p>https://front.example.com/reset?from=mail&amp;lang=en?code=k1.c0de</p>');
});

test('the confirmation link is the public URL of the confirmation route', async () => {
  const sent: EmailMessage[] = [];
  await createAccountMails(config(), keeping(sent)).emailConfirmation.send(user, 'k1.c0de');
  expect(sent[0].text).toContain('<p>https://api.example.com/api/auth/email-confirmation?confirmation=k1.c0de</p>');
  expect(sent[0].subject).toBe('Account confirmation');
});

test('without server.url the link is the address the server listens on, an IPv6 one in brackets', async () => {
  const sent: EmailMessage[] = [];
  const base = defaultConfig();
  await createAccountMails({ ...base, server: { ...base.server, host: '::', port: 1337 } }, keeping(sent)).emailConfirmation.send(user, 'k1.c0de');
  expect(sent[0].text).toContain('<p>http://[::]:1337/api/auth/email-confirmation?confirmation=k1.c0de</p>');
});

test('no provider, or no reset page: a 503 that retrying will not mend', () => {
  const noProvider = errorOf(() => createAccountMails(config(), undefined).emailConfirmation.check());
  expect(noProvider.extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', http: { status: 503 } });
  expect(noProvider.message).toContain('no e-mail provider');
  const base = config();
  const noPage = errorOf(() => createAccountMails({ ...base, usersPermissions: { ...base.usersPermissions, emailResetPassword: undefined } }, keeping([])).resetPassword.check());
  expect(noPage.message).toContain('advanced.email_reset_password');
  expect(noPage.extensions.http).toEqual({ status: 503 });
  expect(() => createAccountMails(config(), keeping([])).resetPassword.check()).not.toThrow();
});

test('a provider that fails is a 503 to retry, its reason logged; any other error goes on as it is', async () => {
  const logged: string[] = [];
  const failing = createAccountMails(config(), keeping([], new EmailDeliveryError('ECONNECTION')), (line) => logged.push(line));
  await expect(failing.resetPassword.send(user, 'k1.c0de')).rejects.toMatchObject({ message: 'Error sending the reset password email: try again shortly', extensions: { http: { status: 503, headers: { 'retry-after': '5' } } } });
  expect(logged).toEqual(['users-permissions: the password reset e-mail to user 7 could not be sent: ECONNECTION']);
  const bug = new TypeError('a bug');
  await expect(createAccountMails(config(), keeping([], bug)).emailConfirmation.send(user, 'k1.c0de')).rejects.toBe(bug);
});
