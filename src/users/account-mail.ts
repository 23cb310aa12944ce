import type { AccountMailTemplate, FolioConfig } from '../config/types';
import type { StoredDocument } from '../storage/types';
import { EmailDeliveryError, type EmailProvider } from '../email/email-provider';
import { renderTemplate } from '../email/render-template';
import { escapeHtml } from '../common/escape-html';
import { serviceUnavailable } from '../errors/graphql-errors';
import type { TemplateVariable } from '../config/email-templates';

/**
 * The two mails users-permissions sends, each from its template: the password reset code, and the
 * e-mail confirmation link. A mail that cannot be sent (no provider configured, no reset page, a mail
 * server that is down) is a 503 with a plain message on both surfaces; the reason goes to the log.
 */

export interface CodeMail {
  /** throws the 503 when this mail cannot be sent with this configuration */
  check(): void;
  send(user: StoredDocument, code: string): Promise<void>;
}

export interface AccountMails {
  resetPassword: CodeMail;
  emailConfirmation: CodeMail;
}

/** Strapi's `getAbsoluteServerUrl`: `server.url`, else the address the server listens on (an IPv6 one in brackets). */
const serverUrlOf = ({ server }: FolioConfig): string => (server.url ?? `http://${server.host.includes(':') ? `[${server.host}]` : server.host}:${server.port}`).replace(/\/+$/, '');

export const createAccountMails = (
  config: FolioConfig,
  provider: EmailProvider | undefined,
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): AccountMails => {
  const { emailTemplates, emailResetPassword } = config.usersPermissions;
  const serverUrl = serverUrlOf(config);
  const noProvider = () => serviceUnavailable('E-mail is not set up on this server (no e-mail provider in config/plugins): nothing can be mailed', null);

  /** `link`: where the mail's `URL` leads, or why there is none */
  const codeMail = (name: string, template: AccountMailTemplate, link: { url: string } | { unset: string }, unsent: string): CodeMail => {
    const ready = (): { sender: EmailProvider; url: string } => {
      if (!provider) throw noProvider();
      if ('unset' in link) throw serviceUnavailable(link.unset, null);
      return { sender: provider, url: link.url };
    };
    return {
      check: () => void ready(),
      async send(user, code) {
        const { sender, url } = ready();
        const values: Partial<Record<TemplateVariable, string>> = {
          URL: url,
          SERVER_URL: serverUrl,
          // Strapi names the code TOKEN in the reset mail and CODE in the confirmation: both work in both
          CODE: code,
          TOKEN: code,
          'USER.username': String(user.username ?? ''),
          'USER.email': String(user.email ?? ''),
        };
        try {
          await sender.sendMail({
            to: user.email as string,
            from: template.from,
            replyTo: template.replyTo,
            subject: renderTemplate(template.subject, values),
            text: renderTemplate(template.message, values),
            html: renderTemplate(template.message, values, escapeHtml),
          });
        } catch (error) {
          if (!(error instanceof EmailDeliveryError)) throw error;
          log(`users-permissions: the ${name} e-mail to user ${String(user.id)} ${error.message}`);
          throw serviceUnavailable(unsent);
        }
      },
    };
  };

  return {
    resetPassword: codeMail(
      'password reset',
      emailTemplates.resetPassword,
      emailResetPassword === undefined ? { unset: 'Password reset is not set up on this server (no users-permissions advanced.email_reset_password): nothing can be mailed' } : { url: emailResetPassword },
      'Error sending the reset password email: try again shortly',
    ),
    emailConfirmation: codeMail('confirmation', emailTemplates.emailConfirmation, { url: `${serverUrl}/api/auth/email-confirmation` }, 'Error sending confirmation email'),
  };
};
