/**
 * What Folio needs of an e-mail provider: send one message. Each provider (config/plugins `email.config.provider`)
 * is a module of its own behind this interface; create-email-provider picks one by name.
 */

export interface EmailMessage {
  to: string;
  /** unset: the plugin's `settings.defaultFrom` */
  from?: string;
  /** unset: the plugin's `settings.defaultReplyTo` */
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
}

export interface EmailProvider {
  /** resolves once the provider accepted the message; rejects with an EmailDeliveryError when it did not */
  sendMail(message: EmailMessage): Promise<void>;
  close(): void;
}

/** The provider did not take the message (unreachable, refused, timed out): nothing was sent. */
export class EmailDeliveryError extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`could not be sent: ${reason}`, options);
    this.name = 'EmailDeliveryError';
  }
}
