import { loadModels } from '../../src/models/load-models';
import { BUILT_IN_CONTENT_TYPE_UIDS } from '../../src/models/built-in-targets';
import { ModelError, validateModels } from '../../src/models/validate-models';
import type { Models } from '../../src/models/types';
import { component, contentType, contentTypePath, expectProblem, loadError, postWith, writeSchemaDir } from './schema-dir';

const POST = contentTypePath('post');
const TAG = contentTypePath('tag');

describe('model file shape', () => {
  test('invalid JSON names the file and the parser message', () => {
    const line = expectProblem({ [POST]: '{ "kind": "collectionType", ' }, POST, undefined, /invalid JSON: /);
    expect(line).toMatch(/JSON/);
  });

  test('kind must be collectionType or singleType', () => {
    expectProblem({ [POST]: contentType('post', 'posts', {}, { kind: 'collection' }) }, POST, undefined, /kind must be collectionType or singleType, got "collection"/);
  });

  test.each(['collectionName', 'info.singularName', 'info.pluralName', 'info.displayName'])('%s is required', (field) => {
    const model = contentType('post', 'posts', { title: { type: 'string' } });
    const [parent, key] = field.includes('.') ? [model.info as Record<string, unknown>, field.split('.')[1]!] : [model as Record<string, unknown>, field];
    delete parent[key];
    expectProblem({ [POST]: model }, POST, undefined, new RegExp(`${field.replace('.', '\\.')} is missing`));
  });

  test('options.draftAndPublish must be a boolean', () => {
    const model = contentType('post', 'posts', {}, { options: { draftAndPublish: 'yes' } });
    expectProblem({ [POST]: model }, POST, undefined, /options\.draftAndPublish must be a boolean/);
  });

  test('components need collectionName and info.displayName', () => {
    const path = 'components/shared/seo.json';
    expectProblem({ [path]: { info: {}, attributes: {} } }, path, undefined, /collectionName is missing/);
    expectProblem({ [path]: { collectionName: 'seos', info: {}, attributes: {} } }, path, undefined, /info\.displayName is missing/);
  });
});

describe('API IDs', () => {
  test('must be kebab-case starting with a letter', () => {
    expectProblem({ [POST]: contentType('blogPost', 'posts', {}) }, POST, undefined, /info\.singularName "blogPost" must match/);
    expectProblem({ [POST]: contentType('post', '2posts', {}) }, POST, undefined, /info\.pluralName "2posts" must match/);
  });

  test('singular and plural must differ', () => {
    expectProblem({ [POST]: contentType('news', 'news', {}) }, POST, undefined, /singularName and info\.pluralName must differ/);
  });

  test('no two content-types share an API ID', () => {
    const files = { [POST]: contentType('post', 'posts', {}), [TAG]: contentType('posts', 'tags', {}) };
    const line = expectProblem(files, TAG, undefined, /info\.singularName "posts" is already an API ID of/);
    expect(line).toContain(POST);
  });

  test('the same uid declared twice', () => {
    const other = 'api/post/content-types/post-copy/schema.json';
    const line = expectProblem({ [POST]: contentType('post', 'posts', {}), [other]: contentType('post', 'posts-copy', {}) }, other, undefined, /uid api::post\.post is also declared by/);
    expect(line).toContain(POST);
  });

  test('collection names are unique across content-types and components', () => {
    const files = { [POST]: contentType('post', 'posts', {}), 'components/shared/posts.json': { ...component('posts', {}), collectionName: 'posts' } };
    expectProblem(files, 'components/shared/posts.json', undefined, /collectionName "posts" is already used by/);
  });
});

describe('attribute names', () => {
  test.each(['my-title', '1title', 'títle'])('%s is not a GraphQL name', (name) => {
    expectProblem(postWith({ [name]: { type: 'string' } }), POST, name, /must be a valid GraphQL name/);
  });

  test('must not start with __', () => {
    expectProblem(postWith({ __secret: { type: 'string' } }), POST, '__secret', /must not start with "__"/);
  });

  test.each(['id', 'documentId', 'createdAt', 'locale', 'publishedAt'])('%s is reserved', (name) => {
    expectProblem(postWith({ [name]: { type: 'string' } }), POST, name, new RegExp(`name "${name}" is reserved`));
  });
});

describe('attribute types and options', () => {
  test('unknown type', () => {
    expectProblem(postWith({ title: { type: 'strin' } }), POST, 'title', /unknown type "strin" \(expected one of string, text/);
  });

  test('missing type', () => {
    expectProblem(postWith({ title: { required: true } }), POST, 'title', /type is missing/);
  });

  test('a custom field without its uid is a problem (custom fields with one load: see custom-fields.test)', () => {
    const files = postWith({ color: { type: 'customField' } });
    expectProblem(files, POST, 'color', /unknown type "customField"/);
  });

  test.each(['required', 'unique', 'private'])('%s must be a boolean', (option) => {
    expectProblem(postWith({ title: { type: 'string', [option]: 'true' } }), POST, 'title', new RegExp(`${option} must be a boolean, got "true"`));
  });

  test('pluginOptions.i18n.localized must be a boolean', () => {
    const files = postWith({ title: { type: 'string', pluginOptions: { i18n: { localized: 1 } } } });
    expectProblem(files, POST, 'title', /pluginOptions\.i18n\.localized must be a boolean/);
  });

  test('length and range limits must be numbers, in order', () => {
    expectProblem(postWith({ title: { type: 'string', minLength: '3' } }), POST, 'title', /minLength must be a non-negative integer/);
    expectProblem(postWith({ views: { type: 'integer', max: 'lots' } }), POST, 'views', /max must be a number/);
    expectProblem(postWith({ views: { type: 'integer', min: 10, max: 1 } }), POST, 'views', /min \(10\) is greater than max \(1\)/);
    expectProblem(postWith({ title: { type: 'string', minLength: 9, maxLength: 3 } }), POST, 'title', /minLength \(9\) is greater than maxLength \(3\)/);
  });

  test.each([
    [{ type: 'integer', default: '5' }, /default "5" does not fit type integer: expected an integer/],
    [{ type: 'integer', default: 1.5 }, /expected an integer/],
    [{ type: 'boolean', default: 'false' }, /expected a boolean/],
    [{ type: 'string', default: 3 }, /expected a string/],
    [{ type: 'date', default: '2024-13-45' }, /expected a date as YYYY-MM-DD/],
    [{ type: 'datetime', default: 'yesterday' }, /expected an ISO 8601 date-time string/],
    [{ type: 'enumeration', enum: ['draft', 'live'], default: 'gone' }, /default "gone" does not fit type enumeration: expected one of the enum values \(draft, live\)/],
  ])('default of the wrong type: %j', (attribute, pattern) => {
    expectProblem(postWith({ field: attribute }), POST, 'field', pattern);
  });

  test('defaults of the right type pass', () => {
    const dir = writeSchemaDir(
      postWith({
        count: { type: 'biginteger', default: '9007199254740993' },
        at: { type: 'datetime', default: '2024-01-02T03:04:05.000Z' },
        when: { type: 'time', default: '10:30:00' },
        data: { type: 'json', default: { any: ['thing'] } },
      }),
    );
    expect(() => loadModels(dir)).not.toThrow();
  });

  test('enumeration needs a non-empty array of strings', () => {
    expectProblem(postWith({ state: { type: 'enumeration' } }), POST, 'state', /enum is missing/);
    expectProblem(postWith({ state: { type: 'enumeration', enum: [] } }), POST, 'state', /enum must be a non-empty array of non-empty strings/);
    expectProblem(postWith({ state: { type: 'enumeration', enum: ['a', 2] } }), POST, 'state', /enum must be a non-empty array/);
  });

  test('enum values must have a GraphQL name of their own (in-progress is named in_progress: see e2e/enum-values)', () => {
    expectProblem(postWith({ state: { type: 'enumeration', enum: ['ok', 'in-progress', 'in progress'] } }), POST, 'state', /enum values "in-progress" and "in progress" would both be "in_progress" in GraphQL/);
    expectProblem(postWith({ state: { type: 'enumeration', enum: ['true', 'no'] } }), POST, 'state', /enum value "true" cannot be named in GraphQL/);
    expectProblem(postWith({ state: { type: 'enumeration', enum: ['--', 'no'] } }), POST, 'state', /enum value "--" cannot be named in GraphQL \(it would be ""\)/);
    expectProblem(postWith({ state: { type: 'enumeration', enum: ['a', 'a'] } }), POST, 'state', /enum value "a" is listed twice/);
  });

  test('uid targetField must name a string attribute of the same model', () => {
    expectProblem(postWith({ slug: { type: 'uid', targetField: 'title' } }), POST, 'slug', /targetField "title" names no attribute/);
    const files = postWith({ views: { type: 'integer' }, slug: { type: 'uid', targetField: 'views' } });
    expectProblem(files, POST, 'slug', /targetField "views" must name a string or text attribute, not one of type integer/);
  });
});

describe('relations', () => {
  const tag = (attributes: Record<string, unknown>) => ({ [TAG]: contentType('tag', 'tags', attributes) });

  test('relation kind must be known', () => {
    expectProblem(postWith({ tags: { type: 'relation', relation: 'manyWay', target: 'api::tag.tag' } }, tag({})), POST, 'tags', /relation must be one of oneToOne, oneToMany, manyToOne, manyToMany, morphToOne, morphToMany, got "manyWay"/);
  });

  test('target is required and must be a loaded content-type', () => {
    expectProblem(postWith({ tags: { type: 'relation', relation: 'manyToMany' } }), POST, 'tags', /target is missing/);
    expectProblem(postWith({ tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' } }), POST, 'tags', /target api::tag\.tag is not a known content-type/);
    const files = postWith({ seo: { type: 'relation', relation: 'oneToOne', target: 'shared.seo' } }, { 'components/shared/seo.json': component('seo', {}) });
    expectProblem(files, POST, 'seo', /target shared\.seo is a component/);
  });

  test('built-in plugin content-types are valid targets', () => {
    expect(BUILT_IN_CONTENT_TYPE_UIDS).toEqual(['plugin::users-permissions.user', 'plugin::upload.file']);
    const dir = writeSchemaDir(
      postWith({
        owner: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user', inversedBy: 'posts' },
        file: { type: 'relation', relation: 'oneToOne', target: 'plugin::upload.file' },
      }),
    );
    expect(loadModels(dir).contentTypes.get('api::post.post')?.attributes.owner).toMatchObject({ target: 'plugin::users-permissions.user' });
  });

  test('inversedBy/mappedBy must name an attribute of the target', () => {
    const files = postWith({ tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'posts' } }, tag({}));
    expectProblem(files, POST, 'tags', /inversedBy "posts" names no attribute of api::tag\.tag/);
  });

  test('the other side must point back', () => {
    const files = postWith(
      { tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'posts' } },
      tag({ posts: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', mappedBy: 'tags' } }),
    );
    const line = expectProblem(files, POST, 'tags', /inversedBy "posts" does not point back/);
    expect(line).toContain('api::tag.tag.posts must be a relation with target api::post.post and mappedBy: "tags"');
  });

  test('mappedBy needs an inversedBy on the other side', () => {
    const files = postWith(
      { tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' } },
      tag({ posts: { type: 'relation', relation: 'manyToMany', target: 'api::post.post', mappedBy: 'tags' } }),
    );
    expectProblem(files, TAG, 'posts', /mappedBy "tags" does not point back: api::post\.post\.tags must be a relation with target api::tag\.tag and inversedBy: "posts"/);
  });

  test('the other side must not be a scalar', () => {
    const files = postWith({ tag: { type: 'relation', relation: 'manyToOne', target: 'api::tag.tag', inversedBy: 'name' } }, tag({ name: { type: 'string' } }));
    expectProblem(files, POST, 'tag', /inversedBy "name" does not point back/);
  });

  test.each([
    ['manyToOne', 'manyToOne', 'oneToMany'],
    ['oneToOne', 'oneToMany', 'oneToOne'],
    ['manyToMany', 'oneToMany', 'manyToMany'],
  ])('%s cannot pair with %s', (owning, inverse, expected) => {
    const files = postWith(
      { tag: { type: 'relation', relation: owning, target: 'api::tag.tag', inversedBy: 'posts' } },
      tag({ posts: { type: 'relation', relation: inverse, target: 'api::post.post', mappedBy: 'tag' } }),
    );
    expectProblem(files, POST, 'tag', new RegExp(`${owning} cannot pair with api::tag\\.tag\\.posts \\(${inverse}\\); the other side must be ${expected}`));
  });

  test('a relation is either owning or inverse', () => {
    const files = postWith({ tag: { type: 'relation', relation: 'oneToOne', target: 'api::tag.tag', inversedBy: 'a', mappedBy: 'b' } }, tag({}));
    expectProblem(files, POST, 'tag', /either inversedBy \(owning side\) or mappedBy \(inverse side\), not both/);
  });

  test('components may hold one-way relations to content-types, not two-way ones', () => {
    const link = { type: 'relation', relation: 'oneToOne', target: 'api::post.post' };
    expect(() => loadModels(writeSchemaDir(postWith({}, { 'components/shared/link.json': component('link', { post: link }) })))).not.toThrow();
    const files = postWith({}, { 'components/shared/link.json': component('link', { post: { ...link, inversedBy: 'links' } }) });
    expectProblem(files, 'components/shared/link.json', 'post', /relations in components are one-way/);
  });
});

describe('components and dynamic zones', () => {
  test('component attribute needs a known component', () => {
    expectProblem(postWith({ seo: { type: 'component' } }), POST, 'seo', /component is missing/);
    expectProblem(postWith({ seo: { type: 'component', component: 'shared.seo' } }), POST, 'seo', /component shared\.seo is not a known component/);
    expectProblem(postWith({ seo: { type: 'component', component: 'shared.seo', repeatable: 'yes' } }), POST, 'seo', /repeatable must be a boolean/);
  });

  test('dynamic zone needs known components', () => {
    expectProblem(postWith({ blocks: { type: 'dynamiczone', components: [] } }), POST, 'blocks', /components must be a non-empty array/);
    expectProblem(postWith({ blocks: { type: 'dynamiczone' } }), POST, 'blocks', /components is missing/);
    const files = postWith({ blocks: { type: 'dynamiczone', components: ['shared.quote', 'shared.nope'] } }, { 'components/shared/quote.json': component('quote', {}) });
    expectProblem(files, POST, 'blocks', /component shared\.nope is not a known component/);
  });

  test('dynamic zones are not allowed inside components', () => {
    const files = postWith({}, { 'components/shared/a.json': component('a', { zone: { type: 'dynamiczone', components: ['shared.b'] } }), 'components/shared/b.json': component('b', {}) });
    expectProblem(files, 'components/shared/a.json', 'zone', /dynamic zones are only allowed on content-types/);
  });

  test('a component may not contain itself, directly or not', () => {
    const self = postWith({}, { 'components/shared/a.json': component('a', { again: { type: 'component', component: 'shared.a' } }) });
    expectProblem(self, 'components/shared/a.json', 'again', /component cycle shared\.a → shared\.a/);
    const indirect = postWith({}, {
      'components/shared/a.json': component('a', { b: { type: 'component', component: 'shared.b', repeatable: true } }),
      'components/shared/b.json': component('b', { c: { type: 'component', component: 'shared.c' } }),
      'components/shared/c.json': component('c', { a: { type: 'component', component: 'shared.a' } }),
    });
    const { error } = loadError(indirect);
    expect(error.problems).toHaveLength(1);
    expect(error.message).toMatch(/components\/shared\/c\.json: attribute "a": component cycle shared\.a → shared\.b → shared\.c → shared\.a/);
  });
});

describe('reporting', () => {
  test('every problem is reported in one error, one line each', () => {
    const files = postWith(
      { id: { type: 'string' }, title: { type: 'strin' }, views: { type: 'integer', default: 'x' } },
      { [TAG]: '{ nope' },
    );
    const { error } = loadError(files);
    expect(error).toBeInstanceOf(ModelError);
    expect(error.problems.map((problem) => problem.attribute)).toEqual(expect.arrayContaining(['id', 'title', 'views', undefined]));
    expect(error.message.split('\n')).toHaveLength(1 + error.problems.length);
    expect(error.message.split('\n')[0]).toBe(`Invalid models (${error.problems.length} problems):`);
  });

  test('a missing schema folder is a ModelError', () => {
    expect(() => loadModels('/nonexistent/folio-schema')).toThrow(/\/nonexistent\/folio-schema: schema folder does not exist/);
  });

  test('validateModels checks models built in code', () => {
    const models: Models = {
      contentTypes: new Map([
        ['api::post.post', {
          uid: 'api::post.post', apiName: 'post', kind: 'collectionType', collectionName: 'posts', singularName: 'post', pluralName: 'posts',
          displayName: 'Post', draftAndPublish: false, localized: false, file: 'post.json',
          attributes: { locale: { type: 'string', localized: false } },
        }],
      ]),
      components: new Map(),
    };
    expect(() => validateModels(models)).toThrow('post.json: attribute "locale": name "locale" is reserved');
  });
});

describe('polymorphic relations', () => {
  test('morphToOne and morphToMany load without a target, as morph attributes', () => {
    const dir = writeSchemaDir(postWith({ related: { type: 'relation', relation: 'morphToMany' }, pinned: { type: 'relation', relation: 'morphToOne' } }));
    const post = loadModels(dir).contentTypes.get('api::post.post')!;
    expect(post.attributes.related).toEqual({ type: 'morph', relation: 'morphToMany', localized: false });
    expect(post.attributes.pinned).toEqual({ type: 'morph', relation: 'morphToOne', localized: false });
  });

  test('an inverse side (morphOne, morphMany) and a morph relation in a component stop start-up, saying why', () => {
    expectProblem(postWith({ owners: { type: 'relation', relation: 'morphMany', target: 'api::post.post', morphBy: 'related' } }), POST, 'owners', /morphMany \(the inverse side of a polymorphic relation\) is not served/);
    const path = 'components/shared/card.json';
    expectProblem(postWith({}, { [path]: component('card', { related: { type: 'relation', relation: 'morphToMany' } }) }), path, 'related', /polymorphic relations are served on content-types only/);
  });
});
