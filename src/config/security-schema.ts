import type { z } from 'zod';
import { anyString, arrayOf, boolean, either, integer, object, oneOf, recordOf, string } from './config-schema';

/** helmet refuses these unquoted: they would name a host called `self` */
const QUOTED_KEYWORDS = new Set(['none', 'self', 'strict-dynamic', 'report-sample', 'inline-speculation-rules', 'unsafe-inline', 'unsafe-eval', 'unsafe-hashes', 'wasm-unsafe-eval']);

/** One source of a Content-Security-Policy directive, checked as helmet checks it. */
const source = anyString.superRefine((text, ctx) => {
  const unquoted = QUOTED_KEYWORDS.has(text) || /^(nonce|sha256|sha384|sha512)-/.test(text);
  const problem = /[;,]/.test(text) ? `must not hold ";" or ",", got ${JSON.stringify(text)}` : unquoted ? `must be quoted: "'${text}'"` : undefined;
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem, input: text });
});

/** A directive's sources: a list, one string (taken as a list of one), or null to drop a default directive. */
const directiveValue = either(arrayOf(source), source.transform((one) => [one]), 'an array of sources, a string or null').nullable();

const onOffOr = <T extends z.ZodType>(settings: T, example: string) => either(boolean, settings, `a boolean or an object such as ${example}`).optional();

const REFERRER_POLICIES = [
  'no-referrer',
  'no-referrer-when-downgrade',
  'same-origin',
  'origin',
  'strict-origin',
  'origin-when-cross-origin',
  'strict-origin-when-cross-origin',
  'unsafe-url',
  '',
] as const;
const referrerPolicy = oneOf(REFERRER_POLICIES);

const hsts = onOffOr(object({ maxAge: integer({ min: 0 }).optional(), includeSubDomains: boolean.optional(), preload: boolean.optional() }), '{ "maxAge": 31536000 }');
const noSniff = boolean.optional();
const dnsPrefetch = onOffOr(object({ allow: boolean.optional() }), '{ "allow": false }');
const ieNoOpen = boolean.optional();
const frameguard = onOffOr(
  object({ action: string({ pattern: /^(deny|sameorigin|same-origin)$/i, expected: '"deny" or "sameorigin"' }).optional() }),
  '{ "action": "sameorigin" }',
);
const crossDomain = onOffOr(object({ permittedPolicies: oneOf(['none', 'master-only', 'by-content-type', 'all']).optional() }), '{ "permittedPolicies": "none" }');
const poweredBy = boolean.optional();
const xssFilter = boolean.optional();
const policy = <const T extends readonly [string, ...string[]]>(values: T, example: string) => onOffOr(object({ policy: oneOf(values).optional() }), example);

/**
 * `strapi::security`'s config: helmet's options (see resolve-security); the second name of each pair is the
 * older alias Strapi's own defaults use.
 */
export const securityConfigSchema = object({
  contentSecurityPolicy: onOffOr(
    object({ useDefaults: boolean.optional(), reportOnly: boolean.optional(), directives: recordOf(directiveValue).optional() }),
    '{ "directives": { "img-src": ["\'self\'", "data:"] } }',
  ).meta({
    description: 'a directive replaces the default of the same name, `null` drops one',
    example: { directives: { 'img-src': ["'self'", 'https://cdn.example.com'] } },
  }),
  crossOriginEmbedderPolicy: policy(['require-corp', 'credentialless', 'unsafe-none'], '{ "policy": "require-corp" }').meta({ description: 'off, as in Strapi' }),
  crossOriginOpenerPolicy: policy(['same-origin', 'same-origin-allow-popups', 'noopener-allow-popups', 'unsafe-none'], '{ "policy": "same-origin" }').meta({
    description: 'off, as in Strapi',
  }),
  crossOriginResourcePolicy: policy(['same-origin', 'same-site', 'cross-origin'], '{ "policy": "same-origin" }').meta({ description: 'off, as in Strapi' }),
  originAgentCluster: boolean.optional().meta({ description: 'off, as in Strapi' }),
  referrerPolicy: onOffOr(
    object({ policy: either(referrerPolicy, arrayOf(referrerPolicy, { nonEmpty: true }), 'a referrer policy or a non-empty array of them').optional() }),
    '{ "policy": "no-referrer" }',
  ).meta({ description: '`Referrer-Policy`', example: { policy: 'no-referrer' } }),
  strictTransportSecurity: hsts.meta({ description: '`Strict-Transport-Security`', example: { maxAge: 31536000, includeSubDomains: true } }),
  hsts: hsts.meta({ description: 'older name of `strictTransportSecurity`' }),
  xContentTypeOptions: noSniff.meta({ description: '`X-Content-Type-Options: nosniff`; `false` turns it off' }),
  noSniff: noSniff.meta({ description: 'older name of `xContentTypeOptions`' }),
  xDnsPrefetchControl: dnsPrefetch.meta({ description: '`X-DNS-Prefetch-Control`', example: { allow: false } }),
  dnsPrefetchControl: dnsPrefetch.meta({ description: 'older name of `xDnsPrefetchControl`' }),
  xDownloadOptions: ieNoOpen.meta({ description: '`X-Download-Options: noopen`; `false` turns it off' }),
  ieNoOpen: ieNoOpen.meta({ description: 'older name of `xDownloadOptions`' }),
  xFrameOptions: frameguard.meta({ description: '`X-Frame-Options`', example: { action: 'deny' } }),
  frameguard: frameguard.meta({ description: 'older name of `xFrameOptions`' }),
  xPermittedCrossDomainPolicies: crossDomain.meta({ description: '`X-Permitted-Cross-Domain-Policies`' }),
  permittedCrossDomainPolicies: crossDomain.meta({ description: 'older name of `xPermittedCrossDomainPolicies`' }),
  xPoweredBy: poweredBy.meta({ description: 'accepted for helmet\'s sake: Folio never sends `X-Powered-By`' }),
  hidePoweredBy: poweredBy.meta({ description: 'older name of `xPoweredBy`' }),
  xXssProtection: xssFilter.meta({ description: '`X-XSS-Protection: 0`; off, as in Strapi' }),
  xssFilter: xssFilter.meta({ description: 'older name of `xXssProtection`' }),
});

export type SecurityOptions = z.output<typeof securityConfigSchema>;
