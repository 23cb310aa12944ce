import type { ContentType } from '../models/types';
import type { Filter } from '../storage/types';
import { badUserInput } from '../errors/graphql-errors';

/**
 * Which versions of documents a read or write addresses: publication status and locale.
 * Rows carry `_status` ('draft' | 'published'); types without draft & publish only have published rows.
 */

export type Status = 'draft' | 'published';
export const ALL_LOCALES = '*';

export interface Scope {
  status: Status;
  /** a configured locale, `*` (reads only) or undefined for non-localized types */
  locale?: string;
}

export interface LocaleSettings {
  locales: string[];
  defaultLocale: string;
}

/** Validates and completes the locale requested for a content-type. */
export const resolveLocale = (contentType: ContentType, locale: string | undefined | null, settings: LocaleSettings, allowAll: boolean): string | undefined => {
  if (!contentType.localized) return undefined;
  if (locale === undefined || locale === null) return settings.defaultLocale;
  if (locale === ALL_LOCALES && allowAll) return ALL_LOCALES;
  if (!settings.locales.includes(locale)) {
    throw badUserInput(`Locale "${locale}" is not configured (configured: ${settings.locales.join(', ')})`, { key: 'locale', value: locale });
  }
  return locale;
};

export const rowStatus = (contentType: ContentType, status: Status): Status => (contentType.draftAndPublish ? status : 'published');

export const scopeFilter = (contentType: ContentType, scope: Scope): Filter => {
  const filter: Filter = { _status: rowStatus(contentType, scope.status) };
  if (contentType.localized && scope.locale !== undefined && scope.locale !== ALL_LOCALES) filter.locale = scope.locale;
  return filter;
};

/** The scope a relation's target is read in, inherited from the parent document's. */
export const inheritScope = (target: ContentType, parent: Scope, settings: LocaleSettings): Scope => ({
  status: parent.status,
  locale: target.localized ? (parent.locale && parent.locale !== ALL_LOCALES ? parent.locale : settings.defaultLocale) : undefined,
});
