import { loadModels } from '../../src/models/load-models';
import { defaultConfig } from '../../src/config/defaults';
import { buildSchema } from '../../src/schema/build-schema';
import { createOwnerViews, type OwnerView } from '../../src/rest-compiler/owner-views';
import { createRestFilterConverter } from '../../src/rest-compiler/rest-filters';
import { createPopulateParser } from '../../src/rest-compiler/parse-populate';
import { EXAMPLE_SCHEMA } from '../support/test-server';

/** The example models' executable schema and the REST pieces built on it, for unit tests. */
export const restFixture = () => {
  const models = loadModels(EXAMPLE_SCHEMA);
  const { schema } = buildSchema(models, defaultConfig('test'), []);
  const views = createOwnerViews(models, schema);
  const filters = createRestFilterConverter(schema);
  const populate = createPopulateParser(views, filters, defaultConfig('test').rest.maxPopulateDepth);
  const view = (uid: string): OwnerView => {
    const found = views.get(uid);
    if (!found) throw new Error(`no view ${uid}`);
    return found;
  };
  return { models, schema, views, filters, populate, view, article: view('api::article.article') };
};

/** The Strapi error (`extensions.error`) a parser throws. */
export const errorOf = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return (error as { extensions: { error: unknown } }).extensions.error;
  }
  throw new Error('expected an error');
};
