import { joinPath, validate } from './config-schema';
import { securityConfigSchema, type SecurityOptions } from './security-schema';
import type { SecurityConfig } from './types';

/**
 * Strapi's `strapi::security`: koa-helmet with Strapi's defaults under the user's config, resolved once
 * into the headers every answer carries. Option names, their aliases, values and checks are helmet's;
 * what helmet throws on at the first request is a config error here.
 */

type Report = (path: string, message: string) => void;

type Options = SecurityOptions;
type Csp = Exclude<Options['contentSecurityPolicy'], boolean | undefined>;

/** helmet's own directives, added after the configured ones (`useDefaults`, on unless false). */
const HELMET_DIRECTIVES: Record<string, string[]> = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'font-src': ["'self'", 'https:', 'data:'],
  'form-action': ["'self'"],
  'frame-ancestors': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", 'https:', "'unsafe-inline'"],
  'upgrade-insecure-requests': [],
};

/**
 * Strapi's defaults (packages/core/core/src/middlewares/security.ts, with @strapi/utils' CSP_DEFAULTS),
 * less `https://market-assets.strapi.io` in img-src: the admin panel's marketplace, which Folio does not serve.
 */
const STRAPI_DEFAULTS: Options = {
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  contentSecurityPolicy: {
    useDefaults: true,
    directives: {
      'connect-src': ["'self'", 'https:'],
      'img-src': ["'self'", 'data:', 'blob:'],
      'media-src': ["'self'", 'data:', 'blob:'],
      'upgrade-insecure-requests': null,
    },
  },
  xssFilter: false,
  hsts: { maxAge: 31536000, includeSubDomains: true },
  frameguard: { action: 'sameorigin' },
};

/** helmet's options that have a second, older name (the one Strapi's defaults use): [name, alias]. */
const ALIASES: ReadonlyArray<[keyof Options, keyof Options]> = [
  ['strictTransportSecurity', 'hsts'],
  ['xContentTypeOptions', 'noSniff'],
  ['xDnsPrefetchControl', 'dnsPrefetchControl'],
  ['xDownloadOptions', 'ieNoOpen'],
  ['xFrameOptions', 'frameguard'],
  ['xPermittedCrossDomainPolicies', 'permittedCrossDomainPolicies'],
  ['xPoweredBy', 'hidePoweredBy'],
  ['xXssProtection', 'xssFilter'],
];

const dashify = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** Directive names as helmet takes them (`imgSrc` or `img-src`), each once. */
function normalizeDirectives(directives: Record<string, string[] | null>, path: string, report: Report): Map<string, string[] | null> {
  const normalized = new Map<string, string[] | null>();
  const spelledAs = new Map<string, string>();
  for (const [name, value] of Object.entries(directives)) {
    if (!/^[a-z](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$/.test(name)) {
      report(`${path}.${name}`, 'is not a directive name (such as "img-src" or "imgSrc")');
      continue;
    }
    const directive = dashify(name);
    const earlier = spelledAs.get(directive);
    if (earlier !== undefined) report(`${path}.${name}`, `names the same directive as ${earlier}; keep one`);
    spelledAs.set(directive, name);
    normalized.set(directive, value);
  }
  return normalized;
}

/**
 * helmet's policy: the configured directives in their order (null drops one), then helmet's own that are
 * neither set nor dropped; a `default-src` is required.
 */
function resolveCsp(csp: Csp, userDirectives: Map<string, string[] | null>, path: string, report: Report): SecurityConfig['contentSecurityPolicy'] {
  const directives: Record<string, string[]> = {};
  const dropped = new Set<string>();
  for (const [name, value] of userDirectives) {
    if (value !== null) directives[name] = value;
    else if (name === 'default-src') report(`${path}.directives.default-src`, 'cannot be null: helmet requires a default-src');
    else dropped.add(name);
  }
  if (csp.useDefaults !== false) {
    for (const [name, value] of Object.entries(HELMET_DIRECTIVES)) if (!(name in directives) && !dropped.has(name)) directives[name] = value;
  } else if (!('default-src' in directives)) {
    report(`${path}.directives`, 'needs a "default-src" when useDefaults is false');
  }
  return { directives, reportOnly: csp.reportOnly ?? false };
}

/**
 * One option as helmet gets it from Strapi (`defaultsDeep(config, defaults)`): the configured value under
 * either name, an object filled in from Strapi's default object, or else Strapi's default.
 */
function optionOf<K extends keyof Options>(options: Options, name: K, alias?: keyof Options): Options[K] {
  const value = options[name] ?? (alias && options[alias]);
  const fallback = STRAPI_DEFAULTS[name] ?? (alias && STRAPI_DEFAULTS[alias]);
  if (value === undefined) return fallback as Options[K];
  return (typeof value === 'object' && typeof fallback === 'object' ? { ...fallback, ...value } : value) as Options[K];
}

/** helmet's rule for each option: false is off, true or absent is its own default, an object its settings. */
const settingsOf = <T extends object>(value: T | boolean | undefined): T | false => (value === false ? false : value === true || value === undefined ? ({} as T) : value);

function resolveContentSecurityPolicy(csp: Options['contentSecurityPolicy'], path: string, report: Report): SecurityConfig['contentSecurityPolicy'] {
  if (csp === false) return false;
  // `true` is helmet's own policy: Strapi's defaults give way to it, as with defaultsDeep.
  if (csp === true) return resolveCsp({}, new Map(), path, report);
  const strapi = STRAPI_DEFAULTS.contentSecurityPolicy as Csp;
  const directives = normalizeDirectives(csp?.directives ?? {}, `${path}.directives`, report);
  // Strapi's directives fill in those the config leaves out, after the configured ones.
  for (const [name, value] of Object.entries(strapi.directives ?? {})) if (!directives.has(name)) directives.set(name, value);
  return resolveCsp({ ...strapi, ...csp }, directives, path, report);
}

export function resolveSecurity(config: Record<string, unknown>, path: string, report: Report): SecurityConfig {
  const { value, issues } = validate(securityConfigSchema, config);
  for (const issue of issues) report(joinPath(path, issue.path), issue.message);
  const options: Options = value ?? {};
  for (const [name, alias] of ALIASES) {
    if (options[name] !== undefined && options[alias] !== undefined) report(`${path}.${alias}`, `sets the same header as ${name}; keep one`);
  }

  const headers: Record<string, string> = {};
  const set = (name: string, value: string | false | undefined) => {
    if (value !== false && value !== undefined) headers[name] = value;
  };
  const policyOf = <P>(value: { policy?: P } | boolean | undefined, fallback: P) => {
    const settings = settingsOf(value);
    return settings && (settings.policy ?? fallback);
  };
  set('cross-origin-embedder-policy', policyOf(optionOf(options, 'crossOriginEmbedderPolicy'), 'require-corp'));
  set('cross-origin-opener-policy', policyOf(optionOf(options, 'crossOriginOpenerPolicy'), 'same-origin'));
  set('cross-origin-resource-policy', policyOf(optionOf(options, 'crossOriginResourcePolicy'), 'same-origin'));
  if (optionOf(options, 'originAgentCluster') !== false) set('origin-agent-cluster', '?1');
  const referrer = policyOf<string | string[]>(optionOf(options, 'referrerPolicy'), 'no-referrer');
  if (Array.isArray(referrer) && new Set(referrer).size !== referrer.length) report(`${path}.referrerPolicy.policy`, 'lists a policy twice');
  set('referrer-policy', Array.isArray(referrer) ? referrer.join(',') : referrer);
  const transport = settingsOf(optionOf(options, 'strictTransportSecurity', 'hsts'));
  if (transport) {
    const { maxAge = 31536000, includeSubDomains = true, preload = false } = transport;
    set('strict-transport-security', `max-age=${maxAge}${includeSubDomains ? '; includeSubDomains' : ''}${preload ? '; preload' : ''}`);
  }
  if (optionOf(options, 'xContentTypeOptions', 'noSniff') !== false) set('x-content-type-options', 'nosniff');
  const dns = settingsOf(optionOf(options, 'xDnsPrefetchControl', 'dnsPrefetchControl'));
  if (dns) set('x-dns-prefetch-control', dns.allow ? 'on' : 'off');
  if (optionOf(options, 'xDownloadOptions', 'ieNoOpen') !== false) set('x-download-options', 'noopen');
  const frame = settingsOf(optionOf(options, 'xFrameOptions', 'frameguard'));
  if (frame) set('x-frame-options', /^deny$/i.test(frame.action ?? '') ? 'DENY' : 'SAMEORIGIN');
  const crossDomainPolicies = settingsOf(optionOf(options, 'xPermittedCrossDomainPolicies', 'permittedCrossDomainPolicies'));
  if (crossDomainPolicies) set('x-permitted-cross-domain-policies', crossDomainPolicies.permittedPolicies ?? 'none');
  // xPoweredBy / hidePoweredBy: helmet removes X-Powered-By, which Folio never sends.
  if (optionOf(options, 'xXssProtection', 'xssFilter') !== false) set('x-xss-protection', '0');

  return { contentSecurityPolicy: resolveContentSecurityPolicy(options.contentSecurityPolicy, `${path}.contentSecurityPolicy`, report), headers };
}

/** Strapi's security headers, as a project without `config/middlewares` (or listing `strapi::security` bare) gets them. */
export function defaultSecurity(): SecurityConfig {
  return resolveSecurity({}, '', () => {
    throw new Error("Strapi's security defaults do not resolve");
  });
}
