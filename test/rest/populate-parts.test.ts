import { restFixture, errorOf } from './rest-schema';
import { createPopulateTree } from '../../src/rest-compiler/populate-tree';
import { createPopulateOptions, optionsOf } from '../../src/rest-compiler/populate-options';
import { createPopulateParser } from '../../src/rest-compiler/parse-populate';
import type { Selection } from '../../src/rest-compiler/selection';

/** The populate parser's parts on their own: the tree it builds, and the object form of one field. */

const { views, filters, article, view } = restFixture();
const tree = createPopulateTree(views, 3);
const fresh = (): Selection => tree.emptySelection(article);

describe('populate tree', () => {
  test('ensureNode makes a node once, from the target view; an unknown name is refused with its path', () => {
    const selection = fresh();
    const node = tree.ensureNode(selection, 'category', []);
    expect(node.kind).toBe('relation');
    expect(tree.ensureNode(selection, 'category', [])).toBe(node);
    expect('selection' in node && node.selection.view.key).toBe(view('api::category.category').key);
    expect(errorOf(() => tree.ensureNode(selection, 'nope', ['tags']))).toMatchObject({ message: 'Invalid key nope at tags', details: { path: 'tags.nope', param: 'populate' } });
  });

  test('populate reaches at most maxDepth levels (here 3); a zone component is a level, `on` is not', () => {
    const selection = fresh();
    const below = (node: ReturnType<typeof tree.ensureNode>) => (node.kind === 'relation' ? node.selection : fresh());
    const second = tree.ensureNode(below(tree.ensureNode(selection, 'category', [])), 'parent', ['category']);
    const third = tree.ensureNode(below(second), 'parent', ['category', 'parent']);
    expect(errorOf(() => tree.ensureNode(below(third), 'parent', ['category', 'parent', 'parent']))).toMatchObject({
      message: 'populate nests deeper than 3 levels at category.parent.parent.parent',
      details: { param: 'populate', maxPopulateDepth: 3 },
    });
  });

  test('populateAll takes every populatable field; below a zone, every component is filled', () => {
    const selection = fresh();
    tree.populateAll(selection, []);
    expect([...selection.populate.keys()]).toEqual([...article.populatable.keys()]);
    const zone = selection.populate.get('sections')!;
    tree.populateEverywhereBelow(zone, ['sections']);
    expect(zone.kind).toBe('dynamiczone');
    if (zone.kind === 'dynamiczone') for (const component of zone.components.values()) expect(component.populate.size).toBe(component.view.populatable.size);
  });
});

describe('populate options (the object form)', () => {
  const parsed: Array<{ input: unknown; path: string[] }> = [];
  const apply = createPopulateOptions(tree, filters, (_, input, path) => void parsed.push({ input, path }), () => undefined);

  test('each kind of field takes only its own options', () => {
    expect([...optionsOf(article.populatable.get('tags')!)]).toEqual(['fields', 'populate', 'filters', 'sort', 'count']);
    expect([...optionsOf(article.populatable.get('category')!)]).toEqual(['fields', 'populate']);
    expect([...optionsOf(article.populatable.get('cover')!)]).toEqual(['fields']);
    expect(errorOf(() => apply(fresh(), 'category', { sort: 'name' }, []))).toMatchObject({ message: 'Invalid key sort at category' });
  });

  test('filters become the target FiltersInput value, sort its list, nested populate goes back to the parser', () => {
    const selection = fresh();
    apply(selection, 'tags', { filters: { name: { $eq: 'a' } }, sort: 'name:desc', populate: 'articles' }, []);
    const node = selection.populate.get('tags')!;
    expect(node).toMatchObject({ filters: { name: { eq: 'a' } }, sort: ['name:desc'] });
    expect(parsed).toEqual([{ input: 'articles', path: ['tags'] }]);
  });

  test('count=true turns a to-many relation into its count', () => {
    const selection = fresh();
    apply(selection, 'tags', { count: 'true' }, []);
    expect(selection.populate.get('tags')?.kind).toBe('count');
  });

  test('on restricts a zone to the components it names', () => {
    const selection = fresh();
    const zone = article.populatable.get('sections')!;
    const [first] = zone.kind === 'dynamiczone' ? zone.components : [];
    apply(selection, 'sections', { on: { [first]: { fields: ['id'] } } }, []);
    const node = selection.populate.get('sections')!;
    expect(node.kind === 'dynamiczone' && [...node.components.keys()]).toEqual([first]);
    expect(errorOf(() => apply(fresh(), 'sections', { on: { 'nope.nope': true } }, []))).toMatchObject({ message: 'Invalid key nope.nope at sections.on' });
  });
});

describe('below a dynamic zone (sections: shared.quote, shared.rich-text, shared.media)', () => {
  const { populate } = restFixture();
  const sectionsOf = (input: unknown) => {
    const node = populate.parse(article, undefined, input).populate.get('sections')!;
    if (node.kind !== 'dynamiczone') throw new Error('not a zone');
    return node;
  };

  test('a path goes to the components that have it; the others are left as they are', () => {
    const sections = sectionsOf('sections.file');
    expect([...sections.components].map(([uid, selection]) => [uid, [...selection.populate.keys()]])).toEqual([
      ['shared.quote', []],
      ['shared.rich-text', []],
      ['shared.media', ['file']],
    ]);
  });

  test('a component `on` left out keeps out, yet still counts for whether the zone has the field', () => {
    const sections = sectionsOf({ sections: { on: { 'shared.quote': true } }, 0: 'sections.file' });
    expect([...sections.components.keys()]).toEqual(['shared.quote']);
    expect(sections.components.get('shared.quote')!.populate.size).toBe(0);
  });

  test('an entry is kept only in the components where it applies whole', () => {
    const sections = sectionsOf({ sections: { populate: { file: { fields: ['name'] } } } });
    expect(sections.components.get('shared.media')!.populate.get('file')).toMatchObject({ kind: 'media', selection: { fields: ['documentId', 'name'] } });
    expect(errorOf(() => sectionsOf({ sections: { populate: { file: { fields: ['nope'] } } } }))).toMatchObject({ message: 'Invalid key file at sections' });
  });

  test('the depth limit refuses the request wherever a component reaches it', () => {
    const shallow = createPopulateParser(views, filters, 2);
    for (const input of ['sections.file', { sections: { populate: { file: true } } }]) {
      expect(errorOf(() => shallow.parse(article, undefined, input))).toMatchObject({ message: 'populate nests deeper than 2 levels at sections.shared.media.file' });
    }
  });
});
