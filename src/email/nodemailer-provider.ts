import type nodemailerModule from 'nodemailer';
import type { SmtpOptions } from '../config/types';
import { EmailDeliveryError, type EmailProvider } from './email-provider';

/**
 * Strapi's `nodemailer` provider: SMTP through nodemailer. The transport connects per message (no pool), so a
 * mail server restarted between two messages costs nothing, and the configured timeouts bound each attempt.
 */
export const createNodemailerProvider = (options: SmtpOptions): EmailProvider => {
  // loaded by the first provider made (~40 modules, 0.07 s): most instances, and most test servers, mail nothing
  const nodemailer = require('nodemailer') as typeof nodemailerModule;
  const transport = nodemailer.createTransport({ ...options });
  return {
    async sendMail({ to, from, replyTo, subject, text, html }) {
      try {
        await transport.sendMail({ to, from, replyTo, subject, text, html });
      } catch (error) {
        // nodemailer's code names the failure (ECONNECTION, ETIMEDOUT, EAUTH, EENVELOPE…) without the server's words
        const code = (error as { code?: unknown }).code;
        throw new EmailDeliveryError(typeof code === 'string' ? code : 'the SMTP server refused it', { cause: error });
      }
    },
    close: () => transport.close(),
  };
};
