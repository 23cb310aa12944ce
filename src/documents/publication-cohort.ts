import type { ContentType } from '../models/types';
import type { Collection, Filter, StoredDocument } from '../storage/types';
import { ALL_LOCALES, type Scope } from './scope';
import type { PublicationFilter } from '../sdl/naming';

/**
 * Strapi's `publicationFilter` cohorts, resolved to the ids of the rows (in the scope's status) that
 * belong to them. A cohort compares a document's draft and published rows: per locale ("pair") or
 * across locales ("document"). The store has no join, so both statuses' rows of the type are read
 * with a small projection and compared here: a cost that grows with the number of rows, paid only
 * by reads that ask for a cohort.
 */

interface Version {
  id: number;
  pair: string;
  documentId: string;
  updatedAt: string;
}

type Belongs = (row: Version, counterpart: Version | undefined, publishedSomewhere: boolean) => boolean;

const none: Belongs = () => false;
const editedAfterPublish = (draft: Version, published: Version): boolean => draft.updatedAt > published.updatedAt;

/** For each cohort: which draft rows and which published rows belong to it, given their counterpart in the other status. */
const COHORTS: Record<PublicationFilter, { draft: Belongs; published: Belongs }> = {
  'never-published': { draft: (_, published) => !published, published: none },
  'never-published-document': { draft: (_, __, publishedSomewhere) => !publishedSomewhere, published: none },
  'has-published-version': { draft: (_, published) => Boolean(published), published: (_, draft) => Boolean(draft) },
  'has-published-version-document': { draft: (_, __, publishedSomewhere) => publishedSomewhere, published: () => true },
  modified: {
    draft: (draft, published) => published !== undefined && editedAfterPublish(draft, published),
    published: (published, draft) => draft !== undefined && editedAfterPublish(draft, published),
  },
  unmodified: {
    draft: (draft, published) => published !== undefined && !editedAfterPublish(draft, published),
    published: (published, draft) => draft !== undefined && !editedAfterPublish(draft, published),
  },
  'published-without-draft': { draft: none, published: (_, draft) => !draft },
  'published-with-draft': { draft: (_, published) => Boolean(published), published: (_, draft) => Boolean(draft) },
};

const versionOf = (contentType: ContentType, row: StoredDocument): Version => ({
  id: row.id as number,
  documentId: row.documentId as string,
  pair: contentType.localized ? `${row.documentId as string}|${row.locale as string}` : (row.documentId as string),
  updatedAt: String(row.updatedAt),
});

/** The filter restricting a read to its cohorts; undefined when it asks for none (or the type has no draft & publish). */
export const cohortFilter = async (collection: Collection, contentType: ContentType, scope: Scope): Promise<Filter | undefined> => {
  if (!scope.publication || !contentType.draftAndPublish) return undefined;
  // document cohorts look at every locale; pair cohorts only at the scope's
  const everyLocale = scope.publication.some((cohort) => cohort.endsWith('-document'));
  const locale = contentType.localized && !everyLocale && scope.locale && scope.locale !== ALL_LOCALES ? { locale: scope.locale } : {};
  const rows = await collection.find(locale, { projection: ['id', 'documentId', 'locale', '_status', 'updatedAt'] });
  const drafts = new Map<string, Version>();
  const published = new Map<string, Version>();
  const publishedDocuments = new Set<string>();
  for (const row of rows) {
    const version = versionOf(contentType, row);
    if (row._status === 'published') {
      published.set(version.pair, version);
      publishedDocuments.add(version.documentId);
    } else drafts.set(version.pair, version);
  }
  const [own, other] = scope.status === 'draft' ? [drafts, published] : [published, drafts];
  const ids: number[] = [];
  for (const version of own.values()) {
    const counterpart = other.get(version.pair);
    if (scope.publication.every((cohort) => COHORTS[cohort][scope.status](version, counterpart, publishedDocuments.has(version.documentId)))) ids.push(version.id);
  }
  return { id: { $in: ids } };
};
