import type { AccountMailTemplate } from './types';

/**
 * The users-permissions mail templates: Strapi's defaults, and the one kind of tag they may hold,
 * `<%= NAME %>`. Strapi renders them with lodash's template, which runs any `<% code %>`; Folio only
 * substitutes the variables below (src/email/render-template), and a config naming anything else is
 * refused at start rather than mailed with the tag left in.
 */

/** Strapi's authorised keys (its email-template validation), less ADMIN_URL: Folio has no admin panel. */
export const TEMPLATE_VARIABLES = ['URL', 'SERVER_URL', 'CODE', 'TOKEN', 'USER.username', 'USER.email'] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

/** A substitution tag; used with `replace`/`matchAll` only, which do not keep the global flag's state. */
export const TEMPLATE_TAG = /<%=\s*([\w.]+)\s*%>/g;

const ANY_TAG = /<%[\s\S]*?%>/g;
const KNOWN: ReadonlySet<string> = new Set(TEMPLATE_VARIABLES);

/** Why a template cannot be used as written, or undefined when it can. */
export const templateProblem = (template: string): string | undefined => {
  for (const [tag] of template.matchAll(ANY_TAG)) {
    const name = /^<%=\s*([\w.]+)\s*%>$/.exec(tag)?.[1];
    if (name === undefined) return `holds ${tag}: only <%= NAME %> tags are substituted, nothing is run`;
    if (!KNOWN.has(name)) return `names ${name}, which is none of ${TEMPLATE_VARIABLES.join(', ')}`;
  }
  return undefined;
};

/** Strapi's default subjects and messages (its users-permissions bootstrap). */
export const DEFAULT_EMAIL_TEMPLATES: { resetPassword: AccountMailTemplate; emailConfirmation: AccountMailTemplate } = {
  resetPassword: {
    subject: 'Reset password',
    message: `<p>We heard that you lost your password. Sorry about that!</p>

<p>But don’t worry! You can use the following link to reset your password:</p>
<p><%= URL %>?code=<%= TOKEN %></p>

<p>Thanks.</p>`,
  },
  emailConfirmation: {
    subject: 'Account confirmation',
    message: `<p>Thank you for registering!</p>

<p>You have to confirm your email address. Please click on the link below.</p>

<p><%= URL %>?confirmation=<%= CODE %></p>

<p>Thanks.</p>`,
  },
};
