import { buildSchema as parseSdl, type GraphQLInputObjectType } from 'graphql';
import { loadModels } from '../../src/models/load-models';
import { emitSdl } from '../../src/sdl/emit-sdl';
import { createShadowCrud } from '../../src/sdl/shadow-crud';
import { EXAMPLE_SCHEMA } from '../support/test-server';

const models = loadModels(EXAMPLE_SCHEMA);

describe('SDL emission', () => {
  test('the example models emit this SDL', () => {
    expect(emitSdl(models)).toMatchSnapshot();
  });

  test('the emitted SDL is a valid schema with Strapi names', () => {
    const schema = parseSdl(emitSdl(models));
    for (const name of [
      'Article',
      'ArticleInput',
      'ArticleFiltersInput',
      'ArticleEntityResponseCollection',
      'ComponentSharedSeo',
      'ComponentSharedSeoInput',
      'ENUM_ARTICLE_KIND',
      'ArticleSectionsDynamicZone',
      'ArticleSectionsDynamicZoneInput',
      'PublicationStatus',
      'PublicationFilter',
      'I18NLocaleCode',
      'DateTime',
      'JSON',
      'Date',
      'Time',
      'Long',
      'UploadFile',
    ]) {
      expect(schema.getType(name)).toBeDefined();
    }
    const query = schema.getQueryType()!.getFields();
    expect(Object.keys(query)).toEqual(expect.arrayContaining(['article', 'articles', 'articles_connection', 'homepage']));
    // the arguments and order of Strapi 5.54's schema for the same models
    expect(query.articles.args.map((arg) => arg.name)).toEqual(['filters', 'pagination', 'sort', 'status', 'hasPublishedVersion', 'publicationFilter', 'locale']);
    expect(query.article.args.map((arg) => arg.name)).toEqual(['documentId', 'status', 'hasPublishedVersion', 'publicationFilter', 'locale']);
    expect(query.homepage.args.map((arg) => arg.name)).toEqual(['status', 'hasPublishedVersion', 'publicationFilter']);
    expect(schema.getMutationType()!.getFields().createArticle.args.map((arg) => arg.name)).toEqual(['status', 'data', 'locale', 'relations']);
    expect(query.authors.args.map((arg) => arg.name)).not.toContain('locale');
    const mutation = schema.getMutationType()!.getFields();
    expect(Object.keys(mutation)).toEqual(
      expect.arrayContaining(['createArticle', 'updateArticle', 'deleteArticle', 'updateHomepage', 'deleteHomepage']),
    );
    expect(mutation.createHomepage).toBeUndefined();
  });

  test('every generated root field carries its @auth scope', () => {
    const sdl = emitSdl(models);
    expect(sdl).toContain('articles(filters: ArticleFiltersInput, pagination: PaginationArg = {}, sort: [String] = [], status: PublicationStatus = PUBLISHED, hasPublishedVersion: Boolean, publicationFilter: PublicationFilter, locale: I18NLocaleCode): [Article]! @auth(scope: ["api::article.article.find"])');
    expect(sdl).toContain('@auth(scope: ["api::article.article.findOne"])');
    expect(sdl).toContain('deleteHomepage: DeleteMutationResponse @auth(scope: ["api::homepage.homepage.delete"])');
  });

  test("every scalar filter input has Strapi's operators, and/or listing bare values of the scalar", () => {
    const schema = parseSdl(emitSdl(models));
    const fieldsOf = (name: string) => Object.fromEntries(Object.entries((schema.getType(name) as GraphQLInputObjectType).getFields()).map(([field, { type }]) => [field, String(type)]));
    expect(fieldsOf('BooleanFilterInput')).toMatchObject({ and: '[Boolean]', or: '[Boolean]', not: 'BooleanFilterInput', containsi: 'Boolean', gt: 'Boolean', between: '[Boolean]' });
    expect(fieldsOf('IntFilterInput')).toMatchObject({ and: '[Int]', contains: 'Int', notContainsi: 'Int', in: '[Int]', null: 'Boolean' });
    expect(fieldsOf('StringFilterInput')).toMatchObject({ and: '[String]', or: '[String]', eqi: 'String', startsWithi: 'String', endsWithi: 'String', between: '[String]' });
  });

  test('shadow CRUD switches become @disabled marks; a type whose mutations are off has none', () => {
    const sdl = emitSdl(models, {
      shadowCrud: createShadowCrud(true, {
        'api::tag.tag': { disable: true },
        'api::article.article': { disableActions: ['delete'], fields: { views: { output: false }, summary: { filters: false } } },
        'api::author.author': { disableMutations: true },
      }),
    });
    expect(sdl).toMatch(/type Tag @disabled \{/);
    expect(sdl).toMatch(/deleteArticle\(documentId: ID!, locale: I18NLocaleCode\): DeleteMutationResponse @disabled/);
    expect(sdl).not.toMatch(/createAuthor\(/);
    expect(sdl).toMatch(/ {2}views: Int @disabled\n/);
    expect(sdl).toMatch(/summary: StringFilterInput @disabled/);
  });
});
