import { join } from 'node:path';
import { loadModels } from '../../src/models/load-models';
import { embedsRelations } from '../../src/models/component-relations';
import { mediaPathsOf } from '../../src/models/media-paths';

/** What components embed, worked out once from the models: on foodadvisor's, unchanged. */

const models = loadModels(join(__dirname, '..', 'fixtures', 'foodadvisor'), { warn: () => undefined });
const attributeOf = (uid: string, name: string) => models.contentTypes.get(uid)!.attributes[name];

test('a zone or component embeds relations when one of its components, or one they nest, holds one', () => {
  // blocks.related-articles holds a relation
  expect(embedsRelations(models, attributeOf('api::page.page', 'blocks'))).toBe(true);
  // shared.seo holds media and shared.meta-social, which holds none
  expect(embedsRelations(models, attributeOf('api::page.page', 'seo'))).toBe(false);
  expect(embedsRelations(models, attributeOf('api::page.page', 'title'))).toBe(false);
});

test("a content-type's media paths reach through components and zone entries, once each", () => {
  expect(mediaPathsOf(models, 'api::page.page')).toEqual(
    expect.arrayContaining(['blocks.images', 'blocks.image', 'blocks.cards.image', 'seo.metaImage', 'seo.metaSocial.image']),
  );
  const paths = mediaPathsOf(models, 'api::page.page');
  expect(new Set(paths).size).toBe(paths.length);
  expect(mediaPathsOf(models, 'api::article.article')).toEqual(expect.arrayContaining(['image', 'seo.metaImage']));
  expect(mediaPathsOf(models, 'api::nope.nope')).toEqual([]);
});
