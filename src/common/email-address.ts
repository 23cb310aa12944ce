/**
 * Whether a string is an e-mail address, as Strapi's check accepts one (something@domain.tld, no
 * spaces), in time linear in its length. The usual pattern `^[^\s@]+@[^\s@]+\.[^\s@]+$`
 * backtracks quadratically on `a@....…`: 100 KB of dots held the event loop for 15 s.
 */

/** RFC 5321's limit on a forward path: no deliverable address is longer. */
export const MAX_EMAIL_LENGTH = 254;

export const isEmailAddress = (value: string): boolean => {
  if (value.length > MAX_EMAIL_LENGTH || /\s/.test(value)) return false;
  const at = value.indexOf('@');
  if (at < 1 || value.includes('@', at + 1)) return false;
  const domain = value.slice(at + 1);
  // a dot with something on both sides
  const dot = domain.indexOf('.', 1);
  return dot > 0 && dot < domain.length - 1;
};
