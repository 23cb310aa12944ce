import { format } from 'node:util';
import type { ContentType, Models } from '../../models/types';
import type { CoreAction } from '../../project/strapi-packages';
import { strictMembers } from '../../common/strict-members';
import { NotFoundError, ValidationError } from '../../project/strapi-errors';

/**
 * The part of Strapi's `strapi` object that project policies and middlewares get:
 * `strapi.documents(uid)` (Strapi 5's Document Service: findMany, findFirst, findOne, count,
 * create, update, delete, publish) and `strapi.log`. Every call runs a core action through the
 * REST front, so it reads and writes as the REST API does (validation, relations, limits), with
 * full access as server code has in Strapi. Anything else on `strapi` throws naming it.
 */

/** Runs a core action of a content-type with a Strapi query object (and a body); answers `{ data, meta }` or throws the error envelope. */
export type CoreCall = (
  contentType: ContentType,
  action: CoreAction,
  query: Record<string, unknown>,
  options?: { documentId?: string; body?: unknown },
) => Promise<{ data: unknown; meta: Record<string, unknown> }>;

export interface StrapiLog {
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
  debug(...args: unknown[]): void;
}

const QUERY_KEYS = new Set(['filters', 'fields', 'populate', 'sort', 'pagination', 'status', 'locale', '_q']);
const PAGE_KEYS = new Set(['start', 'limit', 'page', 'pageSize']);

type Params = Record<string, unknown>;

export const createStrapiLog = (production: boolean, write: (line: string) => void = (line) => process.stderr.write(line)): StrapiLog => {
  const at = (level: string) => (...args: unknown[]) => write(`[${new Date().toISOString()}] ${level}: ${format(...args)}\n`);
  return { info: at('info'), warn: at('warn'), error: at('error'), debug: production ? () => undefined : at('debug') };
};

/** `maxLimit`: REST's largest page, what `findMany` without paging reads (the Document Service reads all; REST's limit holds) */
export const createStrapiFacade = (models: Models, call: CoreCall, log: StrapiLog, maxLimit: number): object => {
  const documents = (uid: string) => {
    const contentType = models.contentTypes.get(uid);
    if (!contentType || !uid.startsWith('api::')) throw new Error(`strapi.documents('${uid}'): not a content-type of the project`);
    /** Strapi's parameters → the REST query; the Document Service addresses drafts unless told otherwise. */
    const queryOf = (method: string, params: Params = {}, own: readonly string[] = []): Record<string, unknown> => {
      const query: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(params)) {
        if (value === undefined || own.includes(key)) continue;
        if (QUERY_KEYS.has(key)) query[key] = value;
        else if (PAGE_KEYS.has(key)) query.pagination = { ...(query.pagination as object), [key]: value };
        else throw new Error(`strapi.documents('${uid}').${method}: the parameter "${key}" is not supported by Folio`);
      }
      if (contentType.draftAndPublish && query.status === undefined && method !== 'delete') query.status = 'draft';
      return query;
    };
    const documentIdOf = (method: string, params: Params | undefined): string => {
      if (typeof params?.documentId !== 'string') throw new Error(`strapi.documents('${uid}').${method}: documentId is required`);
      return params.documentId;
    };
    const one = async (action: CoreAction, method: string, params: Params | undefined, own: readonly string[], body?: unknown) => {
      const documentId = contentType.kind === 'collectionType' ? documentIdOf(method, params) : undefined;
      return (await call(contentType, action, queryOf(method, params, own), { documentId, body })).data;
    };
    /** Strapi's Document Service answers null for a document it does not find, where the REST route answers 404. */
    const unlessMissing = async <T>(work: () => Promise<T>): Promise<T | null> => {
      try {
        return await work();
      } catch (error) {
        if (error instanceof NotFoundError) return null;
        throw error;
      }
    };
    const single = contentType.kind === 'singleType';
    const documentIdOfFound = (found: unknown): unknown => (found as { documentId?: unknown } | undefined)?.documentId;
    /**
     * A single type's documents as the Document Service lists them: its REST find answers the one
     * document (a 404 when there is none), and it has no route by documentId.
     */
    const singleDocuments = async (method: string, params: Params = {}, own: readonly string[] = []): Promise<unknown[]> => {
      // a page of one document is the document: its REST find takes no pagination
      const unpaged = [...own, 'pagination', ...PAGE_KEYS];
      const found = await unlessMissing(async () => (await call(contentType, 'find', queryOf(method, params, unpaged))).data);
      return found === null || found === undefined ? [] : [found];
    };
    const findMany = async (params: Params = {}): Promise<unknown> => {
      if (single) return singleDocuments('findMany', params);
      const paged = Object.keys(params).some((key) => key === 'pagination' || PAGE_KEYS.has(key));
      return (await call(contentType, 'find', queryOf('findMany', paged ? params : { ...params, pageSize: maxLimit }))).data;
    };
    /**
     * Whether a single type's update, delete or publish names another document than the type's own (its draft, in
     * the asked locale): Strapi's Document Service then finds nothing to change.
     */
    const namesAnotherSingle = async (method: string, params: Params | undefined): Promise<boolean> => {
      if (!single || params?.documentId === undefined) return false;
      const [own] = await singleDocuments(method, { locale: params.locale });
      return documentIdOfFound(own) !== params.documentId;
    };
    const findOneSingle = async (params: Params | undefined) => {
      const documentId = documentIdOf('findOne', params);
      const [found] = await singleDocuments('findOne', params, ['documentId']);
      return documentIdOfFound(found) === documentId ? found : null;
    };
    return strictMembers(
      `strapi.documents('${uid}')`,
      {
        findMany,
        findFirst: async (params?: Params) => {
          const found = single ? await singleDocuments('findFirst', params) : await findMany({ ...params, pagination: { start: 0, limit: 1 } });
          return (Array.isArray(found) ? found[0] : found) ?? null;
        },
        findOne: (params?: Params) => (single ? findOneSingle(params) : unlessMissing(() => one('findOne', 'findOne', params, ['documentId']))),
        count: async (params?: Params) => {
          if (single) return (await singleDocuments('count', params)).length;
          const { meta } = await call(contentType, 'find', queryOf('count', { ...params, pagination: { page: 1, pageSize: 1, withCount: true } }));
          return (meta.pagination as { total: number }).total;
        },
        create: async (params?: Params) => {
          if (!single) return (await call(contentType, 'create', queryOf('create', params, ['data']), { body: { data: params?.data } })).data;
          // a single type has one document: REST creates it by its update, and a second one has no place
          // (looked for as a draft whatever status the call asks for: a published one always has its draft)
          if ((await singleDocuments('create', { locale: params?.locale })).length > 0) {
            throw new ValidationError(`${uid} is a single type and has its document already: update it instead`, { uid });
          }
          return (await call(contentType, 'update', queryOf('create', params, ['data']), { body: { data: params?.data } })).data;
        },
        update: async (params?: Params) =>
          (await namesAnotherSingle('update', params)) ? null : unlessMissing(() => one('update', 'update', params, ['documentId', 'data'], { data: params?.data })),
        delete: async (params?: Params) => {
          if (!(await namesAnotherSingle('delete', params))) await unlessMissing(() => one('delete', 'delete', params, ['documentId']));
          return { documentId: params?.documentId ?? null };
        },
        publish: async (params?: Params) => {
          if (await namesAnotherSingle('publish', params)) return { documentId: params?.documentId ?? null, entries: [] };
          const published = await one('update', 'publish', { ...params, status: 'published' }, ['documentId'], { data: {} });
          return { documentId: params?.documentId ?? null, entries: [published] };
        },
      },
      'it gives findMany, findFirst, findOne, count, create, update, delete, publish',
    );
  };
  return strictMembers('strapi', { documents, log }, 'project code gets strapi.documents(uid) and strapi.log');
};
