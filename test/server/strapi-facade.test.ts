import { loadModels } from '../../src/models/load-models';
import { createStrapiFacade, createStrapiLog, type CoreCall } from '../../src/server/project-routes/strapi-facade';
import { EXAMPLE_SCHEMA } from '../support/test-server';

/**
 * `strapi` as project code gets it: Document Service calls become core actions with Strapi's
 * parameters as the REST query (drafts unless told otherwise, as the Document Service reads), and
 * anything else throws naming it. (Run for real, through the pipeline: test/e2e/project-routes.)
 */

const models = loadModels(EXAMPLE_SCHEMA);

interface Recorded {
  uid: string;
  action: string;
  query: Record<string, unknown>;
  documentId?: string;
  body?: unknown;
}

const facade = () => {
  const calls: Recorded[] = [];
  const call: CoreCall = async (contentType, action, query, options = {}) => {
    calls.push({ uid: contentType.uid, action, query, ...options });
    return action === 'find' ? { data: [{ title: 'A' }, { title: 'B' }], meta: { pagination: { total: 7 } } } : { data: { title: 'A' }, meta: {} };
  };
  const strapi = createStrapiFacade(models, call, createStrapiLog(false, () => undefined), 100) as {
    documents(uid: string): Record<string, (params?: Record<string, unknown>) => Promise<unknown>>;
  } & Record<string, unknown>;
  return { strapi, calls };
};

test('findMany, findFirst and count are finds; Strapi’s parameters become the query, top-level paging into pagination', async () => {
  const { strapi, calls } = facade();
  const articles = strapi.documents('api::article.article');
  expect(await articles.findMany({ filters: { title: { $eq: 'A' } }, populate: ['category'], sort: 'title:asc', start: 0, limit: 5, locale: 'fr' })).toEqual([{ title: 'A' }, { title: 'B' }]);
  expect(await articles.findFirst({ status: 'published' })).toEqual({ title: 'A' });
  expect(await articles.count()).toBe(7);
  expect(calls).toEqual([
    { uid: 'api::article.article', action: 'find', query: { filters: { title: { $eq: 'A' } }, populate: ['category'], sort: 'title:asc', pagination: { start: 0, limit: 5 }, locale: 'fr', status: 'draft' } },
    { uid: 'api::article.article', action: 'find', query: { status: 'published', pagination: { start: 0, limit: 1 } } },
    { uid: 'api::article.article', action: 'find', query: { pagination: { page: 1, pageSize: 1, withCount: true }, status: 'draft' } },
  ]);
});

test('findOne, create, update, delete and publish address one document; a type without drafts is not given a status', async () => {
  const { strapi, calls } = facade();
  const articles = strapi.documents('api::article.article');
  await articles.findOne({ documentId: 'd1', fields: ['title'] });
  await articles.create({ data: { title: 'New' }, status: 'published' });
  await articles.update({ documentId: 'd1', data: { title: 'Renamed' } });
  expect(await articles.delete({ documentId: 'd1', locale: 'fr' })).toEqual({ documentId: 'd1' });
  expect(await articles.publish({ documentId: 'd1' })).toEqual({ documentId: 'd1', entries: [{ title: 'A' }] });
  await strapi.documents('api::category.category').findMany();
  expect(calls.map(({ action, query, documentId, body }) => [action, query, documentId, body])).toEqual([
    ['findOne', { fields: ['title'], status: 'draft' }, 'd1', undefined],
    ['create', { status: 'published' }, undefined, { data: { title: 'New' } }],
    ['update', { status: 'draft' }, 'd1', { data: { title: 'Renamed' } }],
    ['delete', { locale: 'fr' }, 'd1', undefined],
    ['update', { status: 'published' }, 'd1', { data: {} }],
    ['find', { pagination: { pageSize: 100 } }, undefined, undefined],
  ]);
});

test('what the subset lacks throws naming it: a member of strapi, a method, a parameter, a content-type', async () => {
  const { strapi } = facade();
  expect(() => strapi.service).toThrow("strapi.service is not supported by Folio (project code gets strapi.documents(uid) and strapi.log)");
  expect(() => strapi.db).toThrow(/^strapi\.db is not supported/);
  expect(() => strapi.documents('api::article.article').unpublish).toThrow(/^strapi\.documents\('api::article\.article'\)\.unpublish is not supported by Folio \(it gives findMany, findFirst/);
  await expect(strapi.documents('api::article.article').findMany({ lookup: 'x' })).rejects.toThrow(`strapi.documents('api::article.article').findMany: the parameter "lookup" is not supported by Folio`);
  await expect(strapi.documents('api::article.article').findOne({})).rejects.toThrow('findOne: documentId is required');
  expect(() => strapi.documents('plugin::users-permissions.user')).toThrow("strapi.documents('plugin::users-permissions.user'): not a content-type of the project");
});

test('strapi.log writes a line per call; debug is silent in production', () => {
  const lines: string[] = [];
  const log = createStrapiLog(true, (line) => lines.push(line));
  log.info('loaded %d pages', 3);
  log.debug('not shown');
  log.error(new Error('boom').message);
  expect(lines.map((line) => line.replace(/^\[[^\]]+\] /, ''))).toEqual(['info: loaded 3 pages\n', 'error: boom\n']);
});
