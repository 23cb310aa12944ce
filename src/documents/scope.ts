import type { ContentType } from '../models/types';
import type { Filter } from '../storage/types';
import { badUserInput } from '../errors/graphql-errors';
import type { PublicationFilter } from '../sdl/naming';

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
  /** reads only: every cohort the rows must belong to (relations inherit them) */
  publication?: readonly PublicationFilter[];
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
  ...(parent.publication ? { publication: parent.publication } : {}),
});

/** Status and locale alone: filters and sorts through relations read the related rows whatever their cohort, as Strapi's joins do. */
export const versionScope = ({ status, locale }: Scope): Scope => ({ status, locale });

/** Identifies a scope among others (loader keys, grouping). */
export const scopeKey = (scope: Scope): string => `${scope.status}|${scope.locale ?? ''}|${scope.publication?.join(',') ?? ''}`;

/** The cohorts a read asks for: `publicationFilter`, and the older `hasPublishedVersion` (true: published in its locale; false: never). */
export const publicationOf = (publicationFilter: PublicationFilter | undefined, hasPublishedVersion: boolean | undefined): PublicationFilter[] | undefined => {
  const cohorts: PublicationFilter[] = [];
  if (publicationFilter) cohorts.push(publicationFilter);
  if (hasPublishedVersion !== undefined) cohorts.push(hasPublishedVersion ? 'has-published-version' : 'never-published');
  return cohorts.length > 0 ? cohorts : undefined;
};
