import type { FolioConfig } from '../config/types';

/**
 * The start-up line for a server whose password reset and e-mail confirmation can mail nothing. Those routes are
 * public (as Strapi's Public role has them; Folio has no switch to close them), so without an e-mail provider
 * every caller gets a 503 there: said once at start rather than found out from a user. `email.enabled: false`
 * says there is no e-mail on purpose, and silences it.
 */
export const noMailWarning = (config: Pick<FolioConfig, 'email'>): string | undefined =>
  config.email === undefined
    ? 'folio: password reset and e-mail confirmation are open to anyone (POST /api/auth/forgot-password, /api/auth/send-email-confirmation and their GraphQL mutations) ' +
      'but no e-mail provider is configured, so they answer 503: configure one with the `email` plugin in config/plugins (provider "nodemailer", ' +
      'docs/permissions.md#password-reset-and-e-mail-confirmation), or set `email: { enabled: false }` there to say there is no e-mail and silence this line'
    : undefined;
