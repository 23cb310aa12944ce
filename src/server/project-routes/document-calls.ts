import type { ContentType, Models } from '../../models/types';
import type { CoreAction } from '../../project/strapi-packages';

/**
 * The `strapi.documents('<uid>').<method>(` calls written in project code (a literal uid), with the
 * core actions each runs through strapi-facade: read at start, so a call to an action the Shadow CRUD
 * configuration switches off stops start-up naming the file instead of failing when a client calls.
 * A uid held in a variable, or a method reached another way, is not seen here: it throws Strapi's
 * NotImplementedError when it runs.
 */

const CALL = /\bstrapi\s*\.\s*documents\s*\(\s*(['"`])([^'"`]+)\1\s*\)\s*\.\s*([A-Za-z_$][\w$]*)\s*\(/g;

/**
 * The core actions a method always runs, as strapi-facade runs them. A single type reads its one
 * document by `find`; its `update`, `delete` and `publish` do so only when given a documentId, which
 * the source does not tell, so they are checked when they run.
 */
const ACTIONS: Record<ContentType['kind'], Readonly<Record<string, readonly CoreAction[]>>> = {
  collectionType: { findMany: ['find'], findFirst: ['find'], count: ['find'], findOne: ['findOne'], create: ['create'], update: ['update'], delete: ['delete'], publish: ['update'] },
  singleType: { findMany: ['find'], findFirst: ['find'], count: ['find'], findOne: ['find'], create: ['find', 'update'], update: ['update'], delete: ['delete'], publish: ['update'] },
};

export interface DocumentCall {
  /** as written, `strapi.documents('api::category.category').findMany` */
  call: string;
  contentType: ContentType;
  action: CoreAction;
}

/** `source`: code without comments (inherited-calls' codeOf). Uids that name no content-type are left to fail when they run. */
export const documentCalls = (source: string, models: Models): DocumentCall[] =>
  [...source.matchAll(CALL)].flatMap(([, , uid, method]) => {
    const contentType = models.contentTypes.get(uid);
    if (!contentType || !uid.startsWith('api::')) return [];
    const actions = Object.hasOwn(ACTIONS[contentType.kind], method) ? ACTIONS[contentType.kind][method] : [];
    return actions.map((action) => ({ call: `strapi.documents('${uid}').${method}`, contentType, action }));
  });

/** The message of a call start-up refuses: `caller` is who makes it (`the action "names"`, `the middleware "stamp"`). */
export const switchedOffCallMessage = (caller: string, { call, contentType, action }: DocumentCall) =>
  `${caller} calls ${call}, which runs the core action ${action} of ${contentType.uid}, switched off by the Shadow CRUD configuration: Folio runs a core action through its GraphQL operation, so it cannot run this one; switch it on again, or do without it`;
