import type { Attribute, Component, Models } from '../../src/models/types';
import { withRelationWrites } from '../../src/resolvers/relation-write-argument';
import { splitRelationWrites } from '../../src/rest-compiler/split-relation-writes';

/** The `relations` argument, and the REST front that fills it: what `ID` fields cannot hold goes by path and comes back in place. */

const component = (uid: string, attributes: Record<string, Attribute>): Component => {
  const [category, name] = uid.split('.');
  return { uid, category, name, collectionName: uid, displayName: name, attributes, file: `${uid}.json` };
};
const relation = (relationKind: 'manyToOne' | 'manyToMany'): Attribute => ({ type: 'relation', relation: relationKind, target: 'api::page.page', localized: false });

const models = {
  contentTypes: new Map(),
  components: new Map([
    ['shared.link', component('shared.link', { label: { type: 'string', localized: false }, page: relation('manyToOne') })],
    ['blocks.hero', component('blocks.hero', { cta: { type: 'component', component: 'shared.link', repeatable: false, localized: false } })],
    ['blocks.card', component('blocks.card', { pages: relation('manyToMany') })],
  ]),
} as unknown as Models;

const attributes: Record<string, Attribute> = {
  title: { type: 'string', localized: false },
  tags: relation('manyToMany'),
  hero: { type: 'component', component: 'blocks.hero', repeatable: false, localized: false },
  cards: { type: 'component', component: 'blocks.card', repeatable: true, localized: false },
  blocks: { type: 'dynamiczone', components: ['shared.link'], localized: false },
};

test('the REST front takes out what ID fields cannot hold, at every component depth, and the argument puts it back', () => {
  const body = {
    title: 'Home',
    tags: { connect: [{ documentId: 'a', position: { start: true } }] },
    hero: { cta: { label: 'Go', page: 7 } },
    cards: [{ pages: ['doc-1'] }, { pages: [{ id: 3 }] }],
    blocks: [{ __component: 'shared.link', page: { connect: ['doc-2'] } }],
  };
  const { data, relations } = splitRelationWrites(models, attributes, body);
  expect(data).toEqual({ title: 'Home', hero: { cta: { label: 'Go' } }, cards: [{ pages: ['doc-1'] }, {}], blocks: body.blocks });
  expect(relations).toEqual([
    { path: ['tags'], value: body.tags },
    { path: ['hero', 'cta', 'page'], value: 7 },
    { path: ['cards', '1', 'pages'], value: [{ id: 3 }] },
  ]);
  expect(withRelationWrites(models, attributes, data, relations)).toEqual(body);
  // the data given is left as it was
  expect(data.hero).toEqual({ cta: { label: 'Go' } });
});

test('documentIds and null stay in data, as Strapi types them', () => {
  const body = { tags: ['a', 'b'], hero: { cta: { page: null } } };
  expect(splitRelationWrites(models, attributes, body)).toEqual({ data: body, relations: [] });
});

test.each([
  [['title'], 'names no relation'],
  [['nope'], 'names no relation'],
  [[], 'names no relation'],
  [['cards', '5', 'pages'], 'names no component given in `data`'],
  [['cards', 'x', 'pages'], 'names no component given in `data`'],
  [['hero', 'cta'], 'names no relation'],
  [['tags'], 'names a relation `data` gives too'],
  [['__proto__', 'polluted'], 'names no component given in `data`'],
])('a path %j is a BAD_USER_INPUT that %s', (path, why) => {
  const data = { tags: ['a'], hero: { cta: {} }, cards: [{}] };
  expect(() => withRelationWrites(models, attributes, data, [{ path, value: ['x'] }])).toThrow(expect.objectContaining({ message: expect.stringContaining(why), extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) }));
});
