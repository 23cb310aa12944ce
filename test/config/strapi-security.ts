/** What Strapi 5.54 answers with (recorded on POST /graphql), less https://market-assets.strapi.io in img-src. */

export const STRAPI_POLICY =
  "connect-src 'self' https:;img-src 'self' data: blob:;media-src 'self' data: blob:;default-src 'self';base-uri 'self';font-src 'self' https: data:;" +
  "form-action 'self';frame-ancestors 'self';object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'";

/** The policy's directives, in its order. */
export const STRAPI_DIRECTIVES: Record<string, string[]> = Object.fromEntries(
  STRAPI_POLICY.split(';').map((directive) => {
    const [name, ...sources] = directive.split(' ');
    return [name, sources];
  }),
);

/** The other headers, in helmet's order. */
export const STRAPI_HEADERS: Record<string, string> = {
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
};

/** Every security header of an answer, the policy first. */
export const STRAPI_ANSWER_HEADERS: Record<string, string> = { 'content-security-policy': STRAPI_POLICY, ...STRAPI_HEADERS };
