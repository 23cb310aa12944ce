import { defaultConfig } from '../../src/config/defaults';
import { configErrorLines, loadFrom } from './config-dir';

/** `email` (Strapi's e-mail plugin), users-permissions' advanced settings and mail templates, and `server.url`. */

const nodemailer = { provider: 'nodemailer', providerOptions: { host: 'smtp.example.com', port: 465, secure: true, auth: { user: 'folio', pass: 'hunter22' } }, settings: { defaultFrom: 'Folio <no-reply@example.com>' } };

test('no email plugin: no provider, confirmation off, Strapi\'s templates', () => {
  const config = loadFrom({});
  expect(config.email).toBeUndefined();
  expect(config.usersPermissions).toMatchObject({ emailConfirmation: false, emailTemplates: defaultConfig().usersPermissions.emailTemplates });
  expect(config.usersPermissions.emailTemplates.resetPassword).toMatchObject({ subject: 'Reset password', message: expect.stringContaining('<%= URL %>?code=<%= TOKEN %>') });
});

test('the nodemailer provider, with the timeouts filled in', () => {
  const config = loadFrom({ 'plugins.json': { email: { config: nodemailer } }, 'server.json': { url: 'https://api.example.com' } });
  expect(config.email).toEqual({
    provider: 'nodemailer',
    providerOptions: { host: 'smtp.example.com', port: 465, secure: true, auth: { user: 'folio', pass: 'hunter22' }, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
    defaultFrom: 'Folio <no-reply@example.com>',
  });
  expect(config.server.url).toBe('https://api.example.com');
});

test('advanced settings and templates in Strapi\'s names', () => {
  const config = loadFrom({
    'plugins.json': {
      email: { config: nodemailer },
      'users-permissions': {
        config: {
          advanced: { email_confirmation: true, email_confirmation_redirection: 'https://example.com/welcome', email_reset_password: 'https://example.com/reset' },
          emailTemplates: {
            reset_password: { from: { name: 'The "Site"', email: 'help@example.com' }, response_email: 'support@example.com', object: 'Your code, <%= USER.username %>' },
          },
        },
      },
    },
  });
  expect(config.usersPermissions).toMatchObject({
    emailConfirmation: true,
    emailConfirmationRedirection: 'https://example.com/welcome',
    emailResetPassword: 'https://example.com/reset',
    emailTemplates: {
      resetPassword: { from: '"The \\"Site\\"" <help@example.com>', replyTo: 'support@example.com', subject: 'Your code, <%= USER.username %>', message: defaultConfig().usersPermissions.emailTemplates.resetPassword.message },
      emailConfirmation: defaultConfig().usersPermissions.emailTemplates.emailConfirmation,
    },
  });
});

test('a provider Folio does not have stops start-up, naming the file and the known ones; the password is never echoed', () => {
  const lines = configErrorLines({ 'plugins.json': { email: { config: { ...nodemailer, provider: 'sendgrid', providerOptions: { ...nodemailer.providerOptions, auth: { user: 'u', pass: 42 } } } } } });
  expect(lines).toEqual([
    'config/plugins.json: email.config.provider must be one of "nodemailer", got "sendgrid"',
    'config/plugins.json: email.config.providerOptions.auth.pass must be a non-empty string',
  ]);
});

test('what cannot be mailed right is refused at start', () => {
  const lines = configErrorLines({
    'plugins.json': {
      email: { config: { provider: 'nodemailer', providerOptions: { port: 25, pool: true }, settings: {} } },
      'users-permissions': {
        config: {
          advanced: { email_reset_password: 'front/reset', allow_register: false },
          emailTemplates: { email_confirmation: { message: '<% require("fs") %>', object: 'Hi <%= USER.password %>', response_email: 'nope' } },
        },
      },
    },
    'server.json': { url: 'api.example.com' },
  });
  expect(lines).toEqual([
    'config/plugins.json: email.config.providerOptions.pool is not a known option (did you mean port?)',
    'config/plugins.json: email.config.providerOptions.host is required',
    'config/plugins.json: email.config.settings.defaultFrom is required',
    'config/plugins.json: users-permissions.config.advanced.email_reset_password must be an http:// or https:// URL, got "front/reset"',
    'config/plugins.json: users-permissions.config.advanced.allow_register is not a known option',
    'config/plugins.json: users-permissions.config.emailTemplates.email_confirmation.message holds <% require("fs") %>: only <%= NAME %> tags are substituted, nothing is run',
    'config/plugins.json: users-permissions.config.emailTemplates.email_confirmation.object names USER.password, which is none of URL, SERVER_URL, CODE, TOKEN, USER.username, USER.email',
    'config/plugins.json: users-permissions.config.emailTemplates.email_confirmation.response_email must be an e-mail address such as "no-reply@example.com", got "nope"',
    'config/server.json: url must be an http:// or https:// URL, got "api.example.com"',
  ]);
});

test('e-mail confirmation without a provider is refused', () => {
  expect(configErrorLines({ 'plugins.json': { 'users-permissions': { config: { advanced: { email_confirmation: true } } } } })).toEqual([
    'config/plugins.json: users-permissions.config.advanced.email_confirmation needs an e-mail provider to mail the links: configure the `email` plugin',
  ]);
});

test('email.enabled: false is no provider on purpose; config is required otherwise; e-mail confirmation still needs a provider', () => {
  expect(loadFrom({ 'plugins.json': { email: { enabled: false } } }).email).toBe(false);
  expect(loadFrom({ 'plugins.json': { email: { enabled: false, config: nodemailer } } }).email).toBe(false);
  expect(loadFrom({ 'plugins.json': { email: { enabled: true, config: nodemailer } } }).email).toMatchObject({ provider: 'nodemailer' });
  expect(configErrorLines({ 'plugins.json': { email: {} } })).toEqual(['config/plugins.json: email.config is required (or `enabled: false` for no e-mail)']);
  expect(configErrorLines({ 'plugins.json': { email: { enabled: false }, 'users-permissions': { config: { advanced: { email_confirmation: true } } } } })).toEqual([
    'config/plugins.json: users-permissions.config.advanced.email_confirmation needs an e-mail provider to mail the links: configure the `email` plugin',
  ]);
});
