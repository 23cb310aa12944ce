import { join } from 'node:path';
import { loadModels } from '../../src/models/load-models';
import { contentType, contentTypePath, component, writeSchemaDir } from './schema-dir';

describe('loadModels on the example schema', () => {
  const models = loadModels(join(__dirname, '../../schema'));

  test('finds every content-type and component by uid', () => {
    expect([...models.contentTypes.keys()].sort()).toEqual([
      'api::article.article',
      'api::author.author',
      'api::category.category',
      'api::homepage.homepage',
      'api::tag.tag',
    ]);
    expect([...models.components.keys()].sort()).toEqual(['shared.keyword', 'shared.media', 'shared.quote', 'shared.rich-text', 'shared.seo']);
  });

  test('resolves content-type fields', () => {
    const article = models.contentTypes.get('api::article.article')!;
    expect(article).toMatchObject({
      apiName: 'article',
      kind: 'collectionType',
      collectionName: 'articles',
      singularName: 'article',
      pluralName: 'articles',
      displayName: 'Article',
      description: 'A blog post',
      draftAndPublish: true,
      localized: true,
    });
    expect(article.file).toMatch(/schema\/api\/article\/content-types\/article\/schema\.json$/);
    expect(models.contentTypes.get('api::homepage.homepage')).toMatchObject({ kind: 'singleType', localized: false });
  });

  test('resolves attributes with their defaults and localization', () => {
    const { attributes } = models.contentTypes.get('api::article.article')!;
    expect(attributes.title).toEqual({ type: 'string', required: true, localized: true });
    expect(attributes.views).toEqual({ type: 'integer', default: 0, localized: false });
    expect(attributes.kind).toEqual({ type: 'enumeration', enum: ['news', 'tutorial', 'opinion'], localized: false });
    expect(attributes.slug).toEqual({ type: 'uid', targetField: 'title', localized: true });
    expect(attributes.category).toEqual({
      type: 'relation', relation: 'manyToOne', target: 'api::category.category', inversedBy: 'articles', localized: true,
    });
    expect(attributes.cover).toEqual({ type: 'media', multiple: false, allowedTypes: ['images', 'files'], localized: true });
    expect(attributes.seo).toEqual({ type: 'component', component: 'shared.seo', repeatable: false, localized: true });
    expect(attributes.sections).toEqual({
      type: 'dynamiczone', components: ['shared.quote', 'shared.rich-text', 'shared.media'], localized: true,
    });
    expect(models.contentTypes.get('api::author.author')!.attributes.name).toEqual({ type: 'string', required: true, localized: false });
  });

  test('resolves components', () => {
    expect(models.components.get('shared.seo')).toMatchObject({
      uid: 'shared.seo',
      category: 'shared',
      name: 'seo',
      collectionName: 'components_shared_seos',
      displayName: 'Seo',
      attributes: {
        metaTitle: { type: 'string', required: true, localized: false },
        keywords: { type: 'component', component: 'shared.keyword', repeatable: true, localized: false },
      },
    });
  });
});

describe('loadModels on a Strapi project layout', () => {
  test('ignores controllers, routes, services, lifecycles and other files', () => {
    const dir = writeSchemaDir({
      [contentTypePath('post')]: contentType('post', 'posts', { title: { type: 'string' } }),
      'api/post/content-types/post/lifecycles.js': 'module.exports = {};',
      'api/post/controllers/post.js': 'module.exports = {};',
      'api/post/routes/post.js': 'module.exports = {};',
      'api/post/services/post.js': 'module.exports = {};',
      'api/post/documentation/1.0.0/post.json': '{ "not": "a model" }',
      'components/blocks/hero.json': component('hero', { heading: { type: 'string' } }),
      'components/blocks/README.md': '# notes',
      'components/.DS_Store': '',
      'extensions/users-permissions/server/index.js': 'module.exports = {};',
      'admin/app.js': '',
      'index.js': 'module.exports = {};',
    });
    const models = loadModels(dir);
    expect([...models.contentTypes.keys()]).toEqual(['api::post.post']);
    expect([...models.components.keys()]).toEqual(['blocks.hero']);
  });

  test("reads the attributes a project adds to a plugin's type, and names a broken file", () => {
    const extension = 'extensions/users-permissions/content-types/user/schema.json';
    const dir = writeSchemaDir({ [extension]: contentType('user', 'users', { job: { type: 'string', required: true } }) });
    expect(loadModels(dir).pluginExtensions?.get('plugin::users-permissions.user')?.attributes).toEqual({ job: { type: 'string', required: true, localized: false } });
    const broken = writeSchemaDir({ [extension]: '{ broken' });
    expect(() => loadModels(broken)).toThrow(/users-permissions\/content-types\/user\/schema\.json: invalid JSON/);
  });

  test('uses the folder name as the api part of the uid and singularName as the rest', () => {
    const dir = writeSchemaDir({ 'api/blog/content-types/blog-post/schema.json': contentType('blog-post', 'blog-posts', {}) });
    expect([...loadModels(dir).contentTypes.keys()]).toEqual(['api::blog.blog-post']);
  });

  test('draftAndPublish is false and attributes are not localized unless asked', () => {
    const model = contentType('post', 'posts', { title: { type: 'string', pluginOptions: { i18n: { localized: true } } } });
    delete (model as Record<string, unknown>).options;
    const post = loadModels(writeSchemaDir({ [contentTypePath('post')]: model })).contentTypes.get('api::post.post')!;
    expect(post).toMatchObject({ draftAndPublish: false, localized: false, attributes: { title: { localized: false } } });
  });

  test('on a localized type every attribute is localized unless it opts out', () => {
    const model = contentType(
      'post',
      'posts',
      {
        title: { type: 'string' },
        views: { type: 'integer', pluginOptions: { i18n: { localized: false } } },
        cover: { type: 'media' },
        owner: { type: 'relation', relation: 'oneToOne', target: 'plugin::users-permissions.user', pluginOptions: { i18n: { localized: false } } },
      },
      { pluginOptions: { i18n: { localized: true } } },
    );
    const post = loadModels(writeSchemaDir({ [contentTypePath('post')]: model })).contentTypes.get('api::post.post')!;
    expect(post.localized).toBe(true);
    expect(post.attributes).toMatchObject({
      title: { localized: true },
      views: { localized: false },
      cover: { localized: true, multiple: false },
      owner: { localized: false },
    });
  });
});
