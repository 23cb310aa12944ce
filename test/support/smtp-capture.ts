import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

/** A real SMTP server on a random loopback port that keeps every message it is given, for tests that mail. */

export interface CapturedMail {
  envelopeFrom: string;
  to: string[];
  /** the message as sent, quoted-printable undone */
  text: string;
  header(name: string): string | undefined;
}

export interface SmtpCapture {
  port: number;
  mails: CapturedMail[];
  /** the last mail sent to `address` */
  lastTo(address: string): CapturedMail | undefined;
  /** once stopped, stopping again does nothing */
  stop(): Promise<void>;
}

// nodemailer writes the bodies quoted-printable: soft line breaks and =XX bytes, UTF-8 underneath
const decodeQuotedPrintable = (raw: Buffer): string =>
  Buffer.from(raw.toString('latin1').replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');

/** `delayMs`: how long the server takes to accept each message once it has it, a slow mail server */
export const startSmtpCapture = async ({ delayMs = 0 }: { delayMs?: number } = {}): Promise<SmtpCapture> => {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        const headers = raw.toString('utf8').split(/\r?\n\r?\n/)[0];
        mails.push({
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          text: decodeQuotedPrintable(raw),
          header: (name) => new RegExp(`^${name}: (.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(headers)?.[1].replace(/\r?\n[ \t]/g, ' '),
        });
        setTimeout(callback, delayMs);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let stopped: Promise<void> | undefined;
  return {
    port: (server.server.address() as AddressInfo).port,
    mails,
    lastTo: (address) => mails.filter((mail) => mail.to.includes(address)).at(-1),
    stop: () => (stopped ??= new Promise<void>((resolve) => server.close(() => resolve()))),
  };
};
