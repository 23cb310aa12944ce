import { parse, validate } from 'graphql';
import { errorOf, restFixture } from './rest-schema';
import { selectionKey, selectionText, selectionVariables } from '../../src/rest-compiler/selection-plan';
import { operationText } from '../../src/rest-compiler/operation-text';
import { createContentRoutes } from '../../src/rest-compiler/content-routes';
import type { Selection } from '../../src/rest-compiler/selection';

const fixture = restFixture();
const { populate, article, schema, models } = fixture;

const textOf = (selection: Selection) => {
  let counter = 0;
  return selectionText(selection, () => `$p${counter++}`);
};

describe('fields and populate → selection set', () => {
  test('no populate: id (numeric, from documentId) and the leaf fields in Strapi order', () => {
    expect(textOf(populate.parse(article, undefined, undefined))).toBe(
      'id: documentId documentId title slug summary body content featured views rating publishDate kind extra createdAt updatedAt publishedAt locale',
    );
  });

  test('fields in both forms keep id and documentId and the schema order', () => {
    const expected = 'id: documentId documentId title views';
    expect(textOf(populate.parse(article, ['views', 'title'], undefined))).toBe(expected);
    expect(textOf(populate.parse(article, 'title,views', undefined))).toBe(expected);
  });

  test('a relation in fields is refused: relations are populated', () => {
    expect(errorOf(() => populate.parse(article, ['category'], undefined))).toEqual({
      name: 'ValidationError',
      message: 'Invalid key category',
      details: { key: 'category', path: null, source: 'query', param: 'fields' },
    });
  });

  test('populate=* takes every first-level populatable field, localizations included, zones last', () => {
    const text = textOf(populate.parse(article, ['title'], '*'));
    const order = ['category', 'tags', 'author', 'cover', 'gallery', 'seo', 'localizations', 'sections'].map((name) => text.indexOf(` ${name}`));
    expect(order.every((position, index) => position > 0 && (index === 0 || position > order[index - 1]))).toBe(true);
    expect(text).toContain('seo { id metaTitle metaDescription }');
    expect(text).toContain('tags(pagination: { limit: -1 }) { id: documentId documentId name weight createdAt updatedAt publishedAt }');
  });

  test('the list, object, dot-path and comma forms mean the same', () => {
    const forms = [['category', 'category.parent'], 'category.parent', { category: { populate: ['parent'] } }, { category: { populate: { parent: 'true' } } }];
    const keys = forms.map((form) => selectionKey(populate.parse(article, ['title'], form)));
    expect(new Set(keys).size).toBe(1);
    expect(selectionKey(populate.parse(article, ['title'], 'category,tags'))).toBe(selectionKey(populate.parse(article, ['title'], ['tags', 'category'])));
  });

  test('populate[x]=false leaves x out', () => {
    expect(textOf(populate.parse(article, ['title'], { category: 'true', tags: 'false' }))).toBe('id: documentId documentId title category { id: documentId documentId name description createdAt updatedAt publishedAt }');
  });

  test('filters and sort become variables; the key keeps their presence, not their values', () => {
    const one = populate.parse(article, ['title'], { tags: { fields: ['name'], filters: { name: { $eq: 'a' } }, sort: 'name:desc' } });
    const other = populate.parse(article, ['title'], { tags: { fields: ['name'], filters: { name: { $eq: 'b' } }, sort: ['name:asc'] } });
    expect(selectionKey(one)).toBe(selectionKey(other));
    expect(textOf(one)).toBe('id: documentId documentId title tags(filters: $p0, sort: $p1, pagination: { limit: -1 }) { id: documentId documentId name }');
    expect(selectionVariables(one)).toEqual([
      { type: 'TagFiltersInput', value: { name: { eq: 'a' } } },
      { type: '[String]', value: ['name:desc'] },
    ]);
  });

  test('dynamic zones: fragments per component, `on` restricts them', () => {
    const text = textOf(populate.parse(article, ['title'], { sections: { on: { 'shared.quote': { fields: ['text'] }, 'shared.rich-text': 'true' } } }));
    // each component's fields answer under its own prefix, so components may share a field name with different types
    expect(text).toContain('sections { __typename ... on ComponentSharedQuote { _c0_id: id _c0_text: text } ... on ComponentSharedRichText { _c1_id: id _c1_body: body } }');
    expect(text).not.toContain('ComponentSharedMedia');
    expect(errorOf(() => populate.parse(article, [], { sections: { on: { 'shared.seo': 'true' } } }))).toMatchObject({ message: 'Invalid key shared.seo at sections.on' });
  });

  test('count, and the populate errors Strapi reports', () => {
    expect(textOf(populate.parse(article, ['title'], { tags: { count: 'true' } }))).toBe('id: documentId documentId title tags(pagination: { limit: -1 }) { documentId }');
    expect(errorOf(() => populate.parse(article, undefined, 'nope'))).toEqual({
      name: 'ValidationError',
      message: 'Invalid key nope',
      details: { key: 'nope', path: 'nope', source: 'query', param: 'populate' },
    });
    expect(errorOf(() => populate.parse(article, undefined, { category: { populate: 'nope' } }))).toMatchObject({ details: { path: 'category.nope' } });
    expect(errorOf(() => populate.parse(article, undefined, { category: { filters: { name: { $eq: 'x' } } } }))).toMatchObject({ message: 'Invalid key filters at category' });
  });

  test('populate[x]=* populates what x holds (where Strapi 5.54 answers 400)', () => {
    expect(textOf(populate.parse(article, ['title'], { seo: '*' }))).toBe('id: documentId documentId title seo { id metaTitle metaDescription keywords { id value } }');
  });

  test('every compiled operation is valid against the schema', () => {
    const routes = createContentRoutes(models, schema);
    const selection = populate.parse(article, undefined, { seo: '*', tags: { filters: { name: { $eq: 'a' } }, sort: 'name' }, sections: '*', category: { populate: '*' }, localizations: { fields: ['title'] } });
    for (const route of routes.routes) {
      for (const operation of [...route.base.values(), ...route.document.values()]) {
        const chosen = route.contentType.uid === article.key ? selection : populate.parse(fixture.view(route.contentType.uid), undefined, '*');
        const text = operationText(operation, chosen, true);
        expect({ text, errors: validate(schema, parse(text)).map((error) => error.message) }).toEqual({ text, errors: [] });
      }
    }
  });
});
