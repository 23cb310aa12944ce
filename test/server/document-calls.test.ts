import { loadModels } from '../../src/models/load-models';
import { documentCalls } from '../../src/server/project-routes/document-calls';
import { codeOf } from '../../src/server/project-routes/inherited-calls';
import { createStrapiFacade, createStrapiLog, type CoreCall } from '../../src/server/project-routes/strapi-facade';
import { EXAMPLE_SCHEMA } from '../support/test-server';

/**
 * The `strapi.documents('<uid>').<method>(` calls start-up reads in project code, and the core
 * actions it says each runs: those strapi-facade runs for the method, so the check and the facade
 * cannot drift apart.
 */

const models = loadModels(EXAMPLE_SCHEMA);
const actionsOf = (source: string) => documentCalls(source, models).map(({ call, action }) => `${call} ${action}`);

test('literal uids in any quotes, spaced or on several lines, are read; comments, variables and other uids are not', () => {
  const code = codeOf(function controller() {
    // strapi.documents('api::article.article').delete({ documentId: 'a' });
    /* strapi.documents('api::article.article').update({ documentId: 'a' }); */
    const uid = 'api::article.article';
    return [
      strapi.documents('api::article.article').findMany(),
      strapi.documents("api::category.category").create({ data: {} }),
      strapi
        .documents(`api::tag.tag`)
        .findOne({ documentId: 'a' }),
      strapi.documents(uid).count(),
      strapi.documents('plugin::users-permissions.user').findMany(),
      strapi.documents('api::nope.nope').findMany(),
    ];
  });
  expect(actionsOf(code)).toEqual([
    "strapi.documents('api::article.article').findMany find",
    "strapi.documents('api::category.category').create create",
    "strapi.documents('api::tag.tag').findOne findOne",
  ]);
});

declare const strapi: { documents(uid: string): Record<string, (params?: object) => unknown> };

/** What each method takes: a collection type's documents are named by documentId; a single type's only by findOne here (without one, its update, delete and publish run no find) */
const paramsOf = (single: boolean, method: string) => ({
  ...((single ? method === 'findOne' : ['findOne', 'update', 'delete', 'publish'].includes(method)) ? { documentId: 'd1' } : {}),
  ...(method === 'create' || method === 'update' ? { data: {} } : {}),
});

describe.each(['api::article.article', 'api::homepage.homepage'])('the actions read for %s are those the facade runs', (uid) => {
  const single = models.contentTypes.get(uid)?.kind === 'singleType';
  test.each(['findMany', 'findFirst', 'findOne', 'count', 'create', 'update', 'delete', 'publish'])('%s', async (method) => {
    const run: string[] = [];
    const call: CoreCall = async (_contentType, action) => {
      run.push(action);
      // a single type without its document yet, so its create goes on
      return action === 'find' ? (single ? { data: null, meta: {} } : { data: [], meta: { pagination: { total: 0 } } }) : { data: {}, meta: {} };
    };
    const facade = createStrapiFacade(models, call, createStrapiLog(false, () => undefined), 100) as typeof strapi;
    await facade.documents(uid)[method](paramsOf(single, method));
    const read = actionsOf(`strapi.documents('${uid}').${method}(params)`).map((line) => line.split(' ')[1]);
    expect(read).toEqual([...new Set(run)]);
  });
});
