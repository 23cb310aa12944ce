import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Validation errors in Strapi's words and paths (yup's, as Strapi's entity validator gives them),
 * on REST and GraphQL alike: every attribute option, components and dynamic zones at any depth, a
 * list where one belongs, and a type with draft & publish, whose published write is validated on
 * the draft as it reads back (absent values then `null`). Models as in Strapi's own API tests
 * (tests/api/core/strapi/api/basic-compo, basic-dz, basic-dp-compo, components/repeatable-required).
 */

type Json = Record<string, unknown>;
interface Issue {
  path: string[];
  message: string;
  name: 'ValidationError';
  value?: unknown;
}

let root: string;
let server: TestServer;

const writeJson = (path: string, content: unknown) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(content));
};

const component = (name: string, attributes: Json) =>
  writeJson(join(root, 'components', 'default', `${name}.json`), { collectionName: `components_default_${name}`, info: { displayName: name }, options: {}, attributes });

const contentType = (singular: string, draftAndPublish: boolean, attributes: Json) =>
  writeJson(join(root, 'api', singular, 'content-types', singular, 'schema.json'), {
    kind: 'collectionType',
    collectionName: `${singular}s`,
    info: { singularName: singular, pluralName: `${singular}s`, displayName: singular },
    options: { draftAndPublish },
    attributes,
  });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'folio-validation-'));
  component('compo', { name: { type: 'string', required: true }, description: { type: 'text', minLength: 3, maxLength: 10 } });
  component('leaf', { note: { type: 'string', required: true, maxLength: 5 } });
  component('inner', {
    code: { type: 'string', regex: '^[a-z]+$' },
    score: { type: 'integer', min: 1, max: 5 },
    leaf: { type: 'component', component: 'default.leaf', repeatable: false },
  });
  component('holder', {
    label: { type: 'string', required: true },
    inner: { type: 'component', component: 'default.inner', repeatable: false, required: true },
    inners: { type: 'component', component: 'default.inner', repeatable: true },
  });
  contentType('product', false, {
    name: { type: 'string', required: true },
    code: { type: 'string', regex: '^[a-z]+$', minLength: 2, maxLength: 5 },
    qty: { type: 'integer', min: 1, max: 9 },
    price: { type: 'float', min: 0.5, max: 10 },
    kind: { type: 'enumeration', enum: ['a', 'b'] },
    contact: { type: 'email' },
    slug: { type: 'uid' },
    flag: { type: 'boolean' },
    body: { type: 'blocks' },
    compo: { type: 'component', component: 'default.compo', repeatable: false, required: true },
    compos: { type: 'component', component: 'default.compo', repeatable: true, required: true, min: 1, max: 2 },
    holder: { type: 'component', component: 'default.holder', repeatable: false },
    dz: { type: 'dynamiczone', components: ['default.compo', 'default.holder'], required: true, max: 2 },
  });
  contentType('dpproduct', true, {
    name: { type: 'string', required: true },
    description: { type: 'text', minLength: 3, maxLength: 30 },
    when: { type: 'date', required: true },
    compo: { type: 'component', component: 'default.compo', repeatable: false, required: true },
    compos: { type: 'component', component: 'default.compo', repeatable: true, required: true },
  });
  server = await startTestServer({ schemaDir: root, config: { plugins: {} } });
});
afterAll(async () => {
  await server.stop();
  rmSync(root, { recursive: true, force: true });
});

const rest = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...server.asAdmin },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
};

/** a product every test starts from, valid */
const product = (changes: Json = {}): Json => ({
  name: 'P',
  compo: { name: 'c' },
  compos: [{ name: 'c' }],
  dz: [{ __component: 'default.compo', name: 'z' }],
  ...changes,
});
const without = (key: string): Json => Object.fromEntries(Object.entries(product()).filter(([name]) => name !== key));

/** REST's refusal: Strapi's envelope, its message the one error's or the count */
const restRefusal = async (method: string, path: string, data: Json): Promise<Issue[]> => {
  const { status, body } = await rest(method, path, { data });
  expect(status).toBe(400);
  const error = body.error as { status: number; name: string; message: string; details: { errors: Issue[] } };
  expect(body.data).toBeNull();
  expect(error).toMatchObject({ status: 400, name: 'ValidationError' });
  expect(error.message).toBe(error.details.errors.length === 1 ? error.details.errors[0].message : `${error.details.errors.length} errors occurred`);
  return error.details.errors;
};

/** GraphQL's refusal: BAD_USER_INPUT with Strapi's `extensions.error` */
const graphqlRefusal = async (mutation: string, variables: Json): Promise<Issue[]> => {
  const { status, body } = await server.gql(mutation, variables, server.asAdmin);
  expect(status).toBe(200);
  const [error] = body.errors ?? [];
  const extensions = error.extensions as { code: string; error: { name: string; message: string; details: { errors: Issue[] } } };
  expect(extensions.code).toBe('BAD_USER_INPUT');
  expect(extensions.error.name).toBe('ValidationError');
  expect(error.message).toBe(extensions.error.message);
  return extensions.error.details.errors;
};

const CREATE_PRODUCT = 'mutation($data: ProductInput!) { createProduct(data: $data) { documentId } }';
const createProductRefusal = (data: Json) => graphqlRefusal(CREATE_PRODUCT, { data });

const issue = (path: string[], message: string, value?: unknown): Issue => ({ path, message, name: 'ValidationError', ...(value === undefined ? {} : { value }) });

describe('scalar attribute options, on both surfaces', () => {
  test.each([
    ['required, left out', without('name'), [issue(['name'], 'name must be defined.')]],
    ['required, null', product({ name: null }), [issue(['name'], 'name must be a `string` type, but the final value was: `null`.', null)]],
    ['minLength', product({ code: 'x' }), [issue(['code'], 'code must be at least 2 characters', 'x')]],
    ['maxLength', product({ code: 'abcdef' }), [issue(['code'], 'code must be at most 5 characters', 'abcdef')]],
    ['regex', product({ code: 'AB' }), [issue(['code'], 'code must match the following: "/^[a-z]+$/"', 'AB')]],
    ['integer min', product({ qty: 0 }), [issue(['qty'], 'qty must be greater than or equal to 1', 0)]],
    ['integer max', product({ qty: 10 }), [issue(['qty'], 'qty must be less than or equal to 9', 10)]],
    ['float min', product({ price: 0.1 }), [issue(['price'], 'price must be greater than or equal to 0.5', 0.1)]],
    ['float max', product({ price: 10.5 }), [issue(['price'], 'price must be less than or equal to 10', 10.5)]],
    ['email', product({ contact: 'nope' }), [issue(['contact'], 'contact must be a valid email', 'nope')]],
    ['empty email', product({ contact: '' }), [issue(['contact'], 'contact cannot be empty', '')]],
    ['uid', product({ slug: 'a b' }), [issue(['slug'], 'slug must match the following: "/^[A-Za-z0-9-_.~]*$/"', 'a b')]],
    [
      'two at once, in the attributes\' order',
      product({ qty: 0, code: 'x' }),
      [issue(['code'], 'code must be at least 2 characters', 'x'), issue(['qty'], 'qty must be greater than or equal to 1', 0)],
    ],
  ])('%s', async (_name, data, expected) => {
    expect(await restRefusal('POST', '/api/products', data)).toEqual(expected);
    expect(await createProductRefusal(data)).toEqual(expected);
  });

  // values GraphQL's own types refuse before any resolver: REST answers yup's type checks
  test.each([
    ['a number for a string', product({ name: 5 }), [issue(['name'], 'name must be a `string` type, but the final value was: `5`.', 5)]],
    ['a word for an integer', product({ qty: 'abc' }), [issue(['qty'], 'qty must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).', null)]],
    ['a fraction for an integer', product({ qty: 1.5 }), [issue(['qty'], 'qty must be an integer', 1.5)]],
    ['a word for a boolean', product({ flag: 'yes' }), [issue(['flag'], 'flag must be a `boolean` type, but the final value was: `"yes"`.', 'yes')]],
    ['no such enumeration value', product({ kind: 'c' }), [issue(['kind'], 'kind must be one of the following values: a, b, ', 'c')]],
  ])('REST: %s', async (_name, data, expected) => {
    expect(await restRefusal('POST', '/api/products', data)).toEqual(expected);
  });

  test('an e-mail on which yup\'s own pattern backtracks for half a minute is refused at once, in yup\'s words', async () => {
    // yup's email() pattern doubles its time with each `a.`: 92 ms for 22 of them
    const hostile = `a@${'a.'.repeat(30)} `;
    const started = Date.now();
    expect(await restRefusal('POST', '/api/products', product({ contact: hostile }))).toEqual([issue(['contact'], 'contact must be a valid email', hostile)]);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test('an update holds a required attribute only to be not null', async () => {
    const created = await rest('POST', '/api/products', { data: product() });
    expect(created.status).toBe(201);
    const { documentId } = created.body.data as { documentId: string };
    expect((await rest('PUT', `/api/products/${documentId}`, { data: { qty: 3 } })).status).toBe(200);
    const expected = [issue(['name'], 'name must be a `string` type, but the final value was: `null`.', null)];
    expect(await restRefusal('PUT', `/api/products/${documentId}`, { name: null })).toEqual(expected);
    expect(await graphqlRefusal('mutation($id: ID!, $data: ProductInput!) { updateProduct(documentId: $id, data: $data) { documentId } }', { id: documentId, data: { name: null } })).toEqual(expected);
  });
});

describe('blocks, as Strapi\'s blocks validator checks them', () => {
  const text = (value: string) => ({ type: 'text', text: value });
  test.each([
    ['a node of no known type', [{ type: 'nope' }], [issue(['body', '0'], 'Block node is of invalid type', { type: 'nope' })]],
    ['a paragraph without children', [{ type: 'paragraph', children: [] }], [issue(['body', '0', 'children'], 'Paragraph node children must have at least one Text or Link node', [])]],
    [
      'a heading\'s level',
      [{ type: 'heading', level: 7, children: [text('x')] }],
      [issue(['body', '0', 'level'], 'body[0].level must be one of the following values: 1, 2, 3, 4, 5, 6', 7)],
    ],
    [
      'a link to javascript:, in a nested list',
      [{ type: 'list', format: 'ordered', children: [{ type: 'list', format: 'unordered', children: [{ type: 'list-item', children: [{ type: 'link', url: 'javascript:alert(1)', children: [text('x')] }] }] }] }],
      [issue(['body', '0', 'children', '0', 'children', '0', 'children', '0', 'url'], 'Please specify a valid link.', 'javascript:alert(1)')],
    ],
  ])('%s', async (_name, body, expected) => {
    expect(await restRefusal('POST', '/api/products', product({ body }))).toEqual(expected);
    expect(await createProductRefusal(product({ body }))).toEqual(expected);
  });

  test('valid blocks are stored', async () => {
    const body = [{ type: 'paragraph', children: [text('Hi '), { type: 'link', url: '/about', children: [text('about')] }] }, { type: 'code', language: null, children: [text('x')] }];
    expect((await rest('POST', '/api/products', { data: product({ body }) })).status).toBe(201);
  });
});

describe('components, at any depth', () => {
  test.each([
    ['single required, left out', without('compo'), [issue(['compo'], 'compo must be defined.')]],
    ['single required, null', product({ compo: null }), [issue(['compo'], 'compo must be a `object` type, but the final value was: `null`.', null)]],
    ['single, minLength', product({ compo: { name: 'c', description: '' } }), [issue(['compo', 'description'], 'compo.description must be at least 3 characters', '')]],
    ['single, maxLength', product({ compo: { name: 'c', description: 'far too long' } }), [issue(['compo', 'description'], 'compo.description must be at most 10 characters', 'far too long')]],
    ['single, its required attribute', product({ compo: { description: 'short' } }), [issue(['compo', 'name'], 'compo.name must be defined.')]],
    ['repeatable, left out', without('compos'), [issue(['compos'], 'compos must be defined.')]],
    ['repeatable, null', product({ compos: null }), [issue(['compos'], 'compos must be a `array` type, but the final value was: `null`.', null)]],
    ['repeatable, below min', product({ compos: [] }), [issue(['compos'], 'compos field must have at least 1 items', [])]],
    [
      'repeatable, above max',
      product({ compos: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }),
      [issue(['compos'], 'compos field must have less than or equal to 2 items', [{ name: 'a' }, { name: 'b' }, { name: 'c' }])],
    ],
    ['repeatable, minLength', product({ compos: [{ name: 'c', description: '' }] }), [issue(['compos', '0', 'description'], 'compos[0].description must be at least 3 characters', '')]],
    ['repeatable, its required attribute', product({ compos: [{ name: 'c' }, { description: 'abc' }] }), [issue(['compos', '1', 'name'], 'compos[1].name must be defined.')]],
    [
      'depth 2',
      product({ holder: { label: 'h', inner: { code: 'AB' } } }),
      [issue(['holder', 'inner', 'code'], 'holder.inner.code must match the following: "/^[a-z]+$/"', 'AB')],
    ],
    ['depth 2, required component left out', product({ holder: { label: 'h' } }), [issue(['holder', 'inner'], 'holder.inner must be defined.')]],
    [
      'depth 3, through a repeatable',
      product({ holder: { label: 'h', inner: { score: 6 }, inners: [{ code: 'ok' }, { leaf: { note: 'toolong' } }] } }),
      // in yup's order, which sorts by the first of the component's keys found in the path (`inner` is in `inners`)
      [
        issue(['holder', 'inners', '1', 'leaf', 'note'], 'holder.inners[1].leaf.note must be at most 5 characters', 'toolong'),
        issue(['holder', 'inner', 'score'], 'holder.inner.score must be less than or equal to 5', 6),
      ],
    ],
  ])('%s', async (_name, data, expected) => {
    expect(await restRefusal('POST', '/api/products', data)).toEqual(expected);
    expect(await createProductRefusal(data)).toEqual(expected);
  });

  test.each([
    ['an object for a repeatable component', product({ compos: {} }), [issue(['compos'], 'compos must be a `array` type, but the final value was: `{}`.', {})]],
    ['a string for a repeatable component', product({ compos: 'someString' }), [issue(['compos'], 'compos must be a `array` type, but the final value was: `"someString"`.', 'someString')]],
    ['a list for a single component', product({ compo: [] }), [issue(['compo'], 'compo must be a `object` type, but the final value was: `[]`.', [])]],
    [
      'a string as a repeatable component\'s item',
      product({ compos: ['x'] }),
      [issue(['compos', '0'], 'compos[0] must be a `object` type, but the final value was: `null` (cast from the value `"x"`).', null)],
    ],
  ])('REST: %s is refused, as GraphQL\'s coercion could not tell', async (_name, data, expected) => {
    expect(await restRefusal('POST', '/api/products', data)).toEqual(expected);
  });

  test('REST: an update giving an object for a repeatable component is refused and changes nothing', async () => {
    const created = await rest('POST', '/api/products', { data: product({ compos: [{ name: 'kept' }] }) });
    expect(created.status).toBe(201);
    const { documentId } = created.body.data as { documentId: string };
    expect(await restRefusal('PUT', `/api/products/${documentId}`, { compos: {} })).toEqual([
      issue(['compos'], 'compos must be a `array` type, but the final value was: `{}`.', {}),
    ]);
    const read = await rest('GET', `/api/products/${documentId}?populate=compos`);
    expect((read.body.data as { compos: Json[] }).compos).toEqual([expect.objectContaining({ name: 'kept' })]);
  });
});

describe('dynamic zones', () => {
  test.each([
    ['required, left out', without('dz'), [issue(['dz'], 'dz must be defined.')]],
    ['an entry\'s minLength', product({ dz: [{ __component: 'default.compo', name: 'z', description: '' }] }), [issue(['dz', '0', 'description'], 'dz[0].description must be at least 3 characters', '')]],
    ['an entry\'s maxLength', product({ dz: [{ __component: 'default.compo', name: 'z', description: 'far too long' }] }), [issue(['dz', '0', 'description'], 'dz[0].description must be at most 10 characters', 'far too long')]],
    ['an entry\'s required attribute', product({ dz: [{ __component: 'default.compo', description: 'abc' }] }), [issue(['dz', '0', 'name'], 'dz[0].name must be defined.')]],
    [
      'an entry naming no component',
      product({ dz: [{ name: 'z' }] }),
      [issue(['dz', '0', '__component'], 'dz[0].__component is a required field'), expect.objectContaining(issue([], 'Cannot build relations store from dynamiczone, component identifier is undefined'))],
    ],
    [
      'an entry\'s component, at depth 2',
      product({ dz: [{ __component: 'default.holder', label: 'h', inner: { code: 'AB', leaf: { note: 'toolong' } } }] }),
      [
        issue(['dz', '0', 'inner', 'code'], 'dz[0].inner.code must match the following: "/^[a-z]+$/"', 'AB'),
        issue(['dz', '0', 'inner', 'leaf', 'note'], 'dz[0].inner.leaf.note must be at most 5 characters', 'toolong'),
      ],
    ],
    [
      'above max',
      product({ dz: [1, 2, 3].map((n) => ({ __component: 'default.compo', name: `z${n}` })) }),
      [issue(['dz'], 'dz field must have less than or equal to 2 items', [1, 2, 3].map((n) => ({ __component: 'default.compo', name: `z${n}` })))],
    ],
  ])('%s', async (_name, data, expected) => {
    expect(await restRefusal('POST', '/api/products', data)).toEqual(expected);
    expect(await createProductRefusal(data)).toEqual(expected);
  });

  test('an entry naming an unknown component: the components Strapi knows, and its relations store', async () => {
    const errors = await restRefusal('POST', '/api/products', product({ dz: [{ __component: 'default.nope', name: 'z' }] }));
    expect(errors).toEqual([
      issue(['dz', '0', '__component'], expect.stringMatching(/^dz\[0\]\.__component must be one of the following values: .*default\.compo/), 'default.nope'),
      expect.objectContaining(issue([], 'Invalid relations')),
    ]);
  });

  test('GraphQL: an entry named by __typename is validated as its component; a nested list given an object is refused', async () => {
    const data = product({ dz: [{ __typename: 'ComponentDefaultHolder', label: 'h', inner: {}, inners: {} }] });
    expect(await createProductRefusal(data)).toEqual([issue(['dz', '0', 'inners'], 'dz[0].inners must be a `array` type, but the final value was: `{}`.', {})]);
  });

  test('REST: an object for the zone is refused (and, as in Strapi, read as one entry naming no component)', async () => {
    expect(await restRefusal('POST', '/api/products', product({ dz: {} }))).toEqual([
      issue(['dz'], 'dz must be a `array` type, but the final value was: `{}`.', {}),
      expect.objectContaining(issue([], 'Cannot build relations store from dynamiczone, component identifier is undefined')),
    ]);
  });
});

describe('draft & publish: a draft is held to the upper bounds, what is published in full, as it reads back', () => {
  const CREATE = 'mutation($data: DpproductInput!) { createDpproduct(data: $data) { documentId } }';
  const valid: Json = { name: 'P', when: '2024-01-01', compo: { name: 'c' }, compos: [{ name: 'c' }] };
  const dpWithout = (key: string): Json => Object.fromEntries(Object.entries(valid).filter(([name]) => name !== key));

  test.each([
    ['a required string left out reads back null', dpWithout('name'), [issue(['name'], 'name must be a `string` type, but the final value was: `null`.', null)]],
    ['a required date left out', dpWithout('when'), [issue(['when'], 'when must be defined.', null)]],
    ['a required component left out reads back null', dpWithout('compo'), [issue(['compo'], 'compo must be a `object` type, but the final value was: `null`.', null)]],
    ['its required attribute', { ...valid, compo: { description: 'short' } }, [issue(['compo', 'name'], 'compo.name must be a `string` type, but the final value was: `null`.', null)]],
    ['a repeatable\'s item\'s', { ...valid, compos: [{ description: 'short' }] }, [issue(['compos', '0', 'name'], 'compos[0].name must be a `string` type, but the final value was: `null`.', null)]],
    ['a required repeatable left out: refused as a draft already', dpWithout('compos'), [issue(['compos'], 'compos must be defined.')]],
    ['minLength, checked on publishing', { ...valid, description: '' }, [issue(['description'], 'description must be at least 3 characters', '')]],
    ['maxLength', { ...valid, description: 'x'.repeat(31) }, [issue(['description'], 'description must be at most 30 characters', 'x'.repeat(31))]],
  ])('%s', async (_name, data, expected) => {
    expect(await restRefusal('POST', '/api/dpproducts', data)).toEqual(expected);
    expect(await graphqlRefusal(CREATE, { data })).toEqual(expected);
  });

  test('a draft is held to the upper bounds and to its required values; publishing it, to every option, in the same words', async () => {
    const draft = await rest('POST', '/api/dpproducts?status=draft', { data: { ...valid, description: 'x' } });
    expect(draft.status).toBe(201);
    const { documentId } = draft.body.data as { documentId: string };
    expect(await restRefusal('PUT', `/api/dpproducts/${documentId}?status=draft`, { description: 'x'.repeat(31) })).toEqual([
      issue(['description'], 'description must be at most 30 characters', 'x'.repeat(31)),
    ]);
    // Folio's drafts keep their required values: a REST read goes through GraphQL, where `name` is `String!`
    expect(await restRefusal('PUT', `/api/dpproducts/${documentId}?status=draft`, { name: null })).toEqual([
      issue(['name'], 'name must be a `string` type, but the final value was: `null`.', null),
    ]);
    expect(await restRefusal('PUT', `/api/dpproducts/${documentId}`, { name: 'Q' })).toEqual([issue(['description'], 'description must be at least 3 characters', 'x')]);
    const published = await rest('PUT', `/api/dpproducts/${documentId}`, { data: { description: 'long enough' } });
    expect(published.status).toBe(200);
    expect((published.body.data as { publishedAt: string | null }).publishedAt).not.toBeNull();
  });
});
