import type { EmailConfig, EmailProviderName, SmtpOptions } from '../config/types';
import type { EmailProvider } from './email-provider';
import { createNodemailerProvider } from './nodemailer-provider';

/** Each provider name of config/plugins (EMAIL_PROVIDERS, which the config checks) and how it is made. */
const PROVIDERS: Record<EmailProviderName, (options: SmtpOptions) => EmailProvider> = {
  nodemailer: createNodemailerProvider,
};

/** The configured provider, with the plugin's `settings` filling in what a message leaves out. */
export const createEmailProvider = ({ provider, providerOptions, defaultFrom, defaultReplyTo }: EmailConfig): EmailProvider => {
  const sender = PROVIDERS[provider](providerOptions);
  return {
    sendMail: (message) => sender.sendMail({ ...message, from: message.from ?? defaultFrom, replyTo: message.replyTo ?? defaultReplyTo }),
    close: () => sender.close(),
  };
};
