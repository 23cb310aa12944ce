import { createHash } from 'node:crypto';
import type { FolioModule } from '../folio-module';
import type { Services } from '../../context';
import type { I18nConfig } from '../../config/types';
import { errorBody, knownErrorBodyOf } from '../error-envelope';
import { methodNotAllowedError } from '../../errors/graphql-errors';
import { drainBody, sendError, sendJson } from '../http-json';
import { createRequestAuthorizer } from '../request-authorizer';
import { createLocalesSchema } from './locales-schema';

/**
 * `GET /api/i18n/locales`, the i18n plugin's content route: the configured locales (`i18n.config`)
 * as Strapi lists them, `{ id, documentId, name: "French (Canada) (fr-CA)", code, …, isDefault }`,
 * behind `plugin::i18n.locales.listLocales`. Locales live in the config, not the store: their ids
 * follow the configured order and their documentIds are derived from their codes, so they stay
 * the same across restarts and instances. GraphQL's `i18NLocale(s)` read the same list (locales-schema).
 */

export const LIST_LOCALES_PERMISSION = 'plugin::i18n.locales.listLocales';
const PATH = /^\/api\/i18n\/locales\/?$/;

const names = new Intl.DisplayNames(['en'], { type: 'language', languageDisplay: 'standard' });

const documentIdOf = (code: string): string => BigInt(`0x${createHash('sha256').update(`i18n-locale:${code}`).digest('hex')}`).toString(36).slice(0, 24);

export const localesOf = (i18n: I18nConfig, since: string) =>
  i18n.locales.map((code, index) => ({
    id: index + 1,
    documentId: documentIdOf(code),
    name: `${names.of(code) ?? code} (${code})`,
    code,
    createdAt: since,
    updatedAt: since,
    publishedAt: since,
    isDefault: code === i18n.defaultLocale,
  }));

export const createLocalesModule = (services: Services): FolioModule => {
  const locales = localesOf(services.config.i18n, new Date().toISOString());
  return {
    name: 'i18n',
    extension: createLocalesSchema(services, locales, LIST_LOCALES_PERMISSION),
    routes: ({ authenticator }) => {
      const { authorize } = createRequestAuthorizer(authenticator);
      return [
        async (request, response, url) => {
          if (!PATH.test(url.pathname)) return false;
          drainBody(request);
          if (request.method !== 'GET' && request.method !== 'HEAD') {
            sendError(response, errorBody(methodNotAllowedError()), { allow: 'GET' });
            return true;
          }
          try {
            await authorize(request, LIST_LOCALES_PERMISSION);
            sendJson(response, 200, locales);
          } catch (error) {
            const body = knownErrorBodyOf(error);
            if (!body) throw error;
            sendError(response, body);
          }
          return true;
        },
      ];
    },
  };
};
