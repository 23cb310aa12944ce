import fc from 'fast-check';
import { fragmentFanOut } from '../test/support/hostile-documents';
import { literalOf } from './graphql-literal';
import type { FuzzRequest } from './fuzz-request';

/**
 * Requests that were once expensive to refuse or to answer (issue 35), so that the fuzzer keeps them
 * cheap: fragments fanning out to 2^60 paths, filters of thousands of branches and `in` lists of
 * thousands of values, sorts naming a key a thousand times, documents with more than 100 validation
 * errors, and sorts over the fuzz server's long titles. Each request carries a nonce in its operation
 * name or values, so no parse, validation or response cache answers it in the server's place.
 */

type Filter = { [key: string]: unknown };

/** uniform, not fast-check's usual bias to small and extreme values: those repeat within a run, and a repeated document is a cached one */
const nonce = fc.noBias(fc.integer({ min: 0, max: 2 ** 31 - 1 }));

// ---- the two surfaces ----------------------------------------------------------------------------

/** GraphQL as a GET when the URL stays short, else as a POST: a GET over 16 KB would only test the header limit. */
const MAX_GET_URL = 8 * 1024;

const graphql = (query: string, options: { variables?: Filter; operationName?: string; get: boolean; asAdmin: boolean }): FuzzRequest => {
  const { variables, operationName, get, asAdmin } = options;
  if (get) {
    const path = `/graphql?query=${encodeURIComponent(query)}${variables ? `&variables=${encodeURIComponent(JSON.stringify(variables))}` : ''}${operationName ? `&operationName=${encodeURIComponent(operationName)}` : ''}`;
    if (path.length <= MAX_GET_URL) return { kind: 'http', method: 'GET', path, headers: { accept: 'application/json' }, asAdmin };
  }
  return { kind: 'http', method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ query, variables, operationName }), asAdmin };
};

const GRAPHQL_OPERATORS = new Set(['eq', 'eqi', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'notIn', 'contains', 'containsi', 'startsWith', 'endsWith', 'between', 'null', 'notNull', 'and', 'or', 'not']);

/** A filter (or sort) as REST's bracketed query string: `filters[$or][0][title][$eq]=t0`, operators given their `$`. */
const bracketPairs = (prefix: string, value: unknown, out: string[] = []): string[] => {
  if (Array.isArray(value)) value.forEach((item, index) => bracketPairs(`${prefix}[${index}]`, item, out));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) bracketPairs(`${prefix}[${GRAPHQL_OPERATORS.has(key) ? `$${key}` : key}]`, item, out);
  } else out.push(`${prefix}=${encodeURIComponent(String(value))}`);
  return out;
};

const rest = (path: string, pairs: string[], asAdmin: boolean): FuzzRequest => ({ kind: 'http', method: 'GET', path: `${path}?${pairs.join('&')}`, headers: {}, asAdmin });

// ---- fragment fan-out ----------------------------------------------------------------------------

/** `fragment Fn on Tag { ...F(n-1) ...F(n-1) }`: 2^depth paths in ~50 bytes a fragment; small depths are valid and run. */
const fanOut = fc
  .record({
    depth: fc.oneof({ weight: 1, arbitrary: fc.integer({ min: 1, max: 10 }) }, { weight: 3, arbitrary: fc.integer({ min: 20, max: 60 }) }),
    leaf: fc.constantFrom('name', 'name weight', 'articles { title }', 'nope', '__typename'),
    nonce,
    get: fc.boolean(),
    asAdmin: fc.boolean(),
  })
  .map(({ depth, leaf, nonce: id, get, asAdmin }) => graphql(fragmentFanOut(depth, leaf, `Fan${id}`), { get, asAdmin }));

// ---- filters of many branches --------------------------------------------------------------------

/** One branch of a large filter, by its index and the run's tag: operators and fields of every kind, relations among them. */
const BRANCHES: Array<(index: number, tag: string) => Filter> = [
  (index, tag) => ({ title: { eq: `${tag}${index}` } }),
  (index) => ({ views: { gt: index } }),
  (index) => ({ views: { between: [index, index + 10] } }),
  (index, tag) => ({ title: { containsi: `${tag}${index}` } }),
  (index, tag) => ({ slug: { startsWith: `${tag}${index}` } }),
  (index, tag) => ({ category: { name: { eq: `${tag}${index}` } } }),
  (index, tag) => ({ tags: { name: { in: [`${tag}${index}`, 'alpha'] } } }),
  (index, tag) => ({ not: { title: { eq: `${tag}${index}` } } }),
  (index, tag) => ({ and: [{ title: { startsWith: tag } }, { views: { lt: index } }] }),
];

/** An `in` list of `size` values of one field: ids, documentIds, titles or views. */
const IN_LISTS: Array<(size: number, tag: string) => Filter> = [
  (size) => ({ id: { in: Array.from({ length: size }, (_, index) => index + 1) } }),
  (size, tag) => ({ documentId: { in: Array.from({ length: size }, (_, index) => `${tag}${index}`) } }),
  (size, tag) => ({ title: { notIn: Array.from({ length: size }, (_, index) => `${tag}${index}`) } }),
  (size) => ({ views: { in: Array.from({ length: size }, (_, index) => index) } }),
];

interface FilterShape {
  branches: number;
  kinds: number[];
  logic: 'or' | 'and';
  /** branches per nested group; 0 keeps them in one list */
  group: number;
  /** an `in` list beside the branches: which, and how long */
  inList?: { kind: number; size: number };
  nonce: number;
}

const filterOf = ({ branches, kinds, logic, group, inList, nonce: id }: FilterShape): Filter => {
  const tag = `t${id.toString(36)}-`;
  const leaves = Array.from({ length: branches }, (_, index) => BRANCHES[kinds[index % kinds.length]](index, tag));
  const inner = logic === 'or' ? 'and' : 'or';
  const groups = group > 0 ? Array.from({ length: Math.ceil(leaves.length / group) }, (_, index) => ({ [inner]: leaves.slice(index * group, (index + 1) * group) })) : leaves;
  const filter: Filter = { [logic]: groups };
  return inList ? { and: [filter, IN_LISTS[inList.kind](inList.size, tag)] } : filter;
};

/** Around the 160 branches of 3 terms the default cost limit lets through, and far past them. */
const filterShape = (maxBranches: number, maxInList: number): fc.Arbitrary<FilterShape> =>
  fc.record(
    {
      branches: fc.oneof({ weight: 1, arbitrary: fc.integer({ min: 1, max: 160 }) }, { weight: 2, arbitrary: fc.integer({ min: 161, max: maxBranches }) }),
      kinds: fc.uniqueArray(fc.nat(BRANCHES.length - 1), { minLength: 1, maxLength: 4 }),
      logic: fc.constantFrom('or' as const, 'and' as const),
      group: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 50 }) }),
      inList: fc.record({ kind: fc.nat(IN_LISTS.length - 1), size: fc.integer({ min: 1, max: maxInList }) }),
      nonce,
    },
    { requiredKeys: ['branches', 'kinds', 'logic', 'group', 'nonce'] },
  );

/** Where a GraphQL filter goes (a root list, a connection, a relation list under a root list), after the operation's name and variables. */
const FILTER_DOCUMENTS: Array<(head: string, argument: string) => string> = [
  (head, argument) => `query ${head} { articles(filters: ${argument}) { title } }`,
  (head, argument) => `query ${head} { articles_connection(filters: ${argument}) { nodes { documentId } pageInfo { total } } }`,
  (head, argument) => `query ${head} { tags { name articles(filters: ${argument}) { title } } }`,
];

/** Through a variable: 5,000 branches are ~150 KB of JSON. */
const variableFilter = fc
  .record({ shape: filterShape(5000, 12_000), document: fc.nat(FILTER_DOCUMENTS.length - 1), asAdmin: fc.boolean() })
  .map(({ shape, document, asAdmin }) =>
    graphql(FILTER_DOCUMENTS[document](`F${shape.nonce}($f: ArticleFiltersInput)`, '$f'), { variables: { f: filterOf(shape) }, get: false, asAdmin }),
  );

/** As a literal, fewer branches: past ~450 the token limit (5,000) refuses the document before the cost is counted. */
const literalFilter = fc
  .record({ shape: filterShape(450, 400), document: fc.nat(FILTER_DOCUMENTS.length - 1), asAdmin: fc.boolean() })
  .map(({ shape, document, asAdmin }) => graphql(FILTER_DOCUMENTS[document](`F${shape.nonce}`, literalOf(filterOf(shape))), { get: false, asAdmin }));

const graphqlFilter = fc.oneof({ weight: 3, arbitrary: variableFilter }, { weight: 1, arbitrary: literalFilter });

/** Where a REST filter goes: the query's `filters`, or a populated relation's (`populate[articles][filters]`). */
interface RestTarget {
  path: string;
  /** what the filter's (or sort's) brackets follow: `filters`, `sort`, or under a populated relation */
  under: string;
  /** pairs sent beside it */
  extra: string[];
}

const REST_FILTER_TARGETS: RestTarget[] = [
  { path: '/api/articles', under: '', extra: [] },
  { path: '/api/articles', under: '', extra: ['status=draft'] },
  { path: '/api/tags', under: 'populate[articles]', extra: [] },
];

/** `filters[...]`, or `populate[articles][filters][...]` */
const restKey = (under: string, key: string) => (under ? `${under}[${key}]` : key);

/** REST's bracketed form: hundreds of branches fill the 16 KB request line; longer ones are answered 431, also fine. */
const restFilter = fc
  .record({ shape: filterShape(250, 150), target: fc.constantFrom(...REST_FILTER_TARGETS), asAdmin: fc.boolean() })
  .map(({ shape, target, asAdmin }) => rest(target.path, [...target.extra, ...bracketPairs(restKey(target.under, 'filters'), filterOf(shape))], asAdmin));

// ---- sorts ----------------------------------------------------------------------------------------

const SORT_KEYS = ['title', 'views', 'slug', 'summary', 'body', 'rating', 'publishDate', 'kind', 'createdAt', 'updatedAt', 'publishedAt', 'id', 'documentId', 'featured', 'category.name', 'author.name'];
const DIRECTIONS = ['', ':asc', ':desc'];

interface SortShape {
  /** how many entries the sort lists */
  count: number;
  /** how many distinct keys they cycle through: fewer than `count` repeats keys */
  distinct: number;
  /** where in SORT_KEYS the cycle starts: 0 sorts by the long titles first */
  first: number;
  direction: number;
}

/** Sorts the server must refuse (a key given twice, over 10 keys) and ones it must answer, mostly by title over long titles. */
const sortShape: fc.Arbitrary<SortShape> = fc.oneof(
  fc.record({ count: fc.integer({ min: 1, max: 4 }), distinct: fc.constant(4), first: fc.constantFrom(0, 0, 1, 12), direction: fc.nat(3) }),
  fc.record({
    count: fc.oneof(fc.integer({ min: 2, max: 20 }), fc.integer({ min: 21, max: 1000 })),
    distinct: fc.integer({ min: 1, max: 16 }),
    first: fc.nat(SORT_KEYS.length - 1),
    direction: fc.nat(3),
  }),
);

/** direction 3 alternates the directions, so a repeated key is given both ways */
const sortList = ({ count, distinct, first, direction }: SortShape): string[] =>
  Array.from({ length: count }, (_, index) => `${SORT_KEYS[(first + (index % distinct)) % SORT_KEYS.length]}${DIRECTIONS[direction === 3 ? index % 3 : direction]}`);

/** Where a GraphQL sort goes, after the operation's name and variables; the argument is a variable, a literal list, or one comma-separated string. */
const SORT_DOCUMENTS: Array<(head: string, argument: string) => string> = [
  (head, argument) => `query ${head} { articles(sort: ${argument}, pagination: { limit: 100 }) { title } }`,
  (head, argument) => `query ${head} { articles(sort: ${argument}, status: DRAFT, pagination: { limit: 100 }) { views } }`,
  (head, argument) => `query ${head} { articles_connection(sort: ${argument}, pagination: { pageSize: 100 }) { nodes { title } } }`,
  (head, argument) => `query ${head} { tags { articles(sort: ${argument}, pagination: { limit: 100 }) { documentId title } } }`,
  (head, argument) => `query ${head} { categories { articles(sort: ${argument}) { title } } }`,
];

const graphqlSort = fc
  .record({ shape: sortShape, document: fc.nat(SORT_DOCUMENTS.length - 1), form: fc.constantFrom('variable', 'variable', 'literal', 'comma'), nonce, get: fc.boolean(), asAdmin: fc.boolean() })
  .map(({ shape, document, form, nonce: id, get, asAdmin }) => {
    const keys = sortList(shape);
    const argument = form === 'variable' ? '$s' : form === 'literal' ? JSON.stringify(keys) : JSON.stringify(keys.join(','));
    const head = form === 'variable' ? `S${id}($s: [String])` : `S${id}`;
    return graphql(SORT_DOCUMENTS[document](head, argument), { variables: form === 'variable' ? { s: keys } : undefined, get, asAdmin });
  });

/** REST's forms of a sort after its key (`sort`, or a populated relation's): `=a,b`, `[0]=a&[1]=b`, `[0][a]=desc`. */
const REST_SORTS: Array<(key: string, keys: string[]) => string[]> = [
  (key, keys) => [`${key}=${encodeURIComponent(keys.join(','))}`],
  (key, keys) => keys.map((item, index) => `${key}[${index}]=${encodeURIComponent(item)}`),
  (key, keys) => keys.map((item, index) => `${key}[${index}][${item.split(':')[0]}]=${item.endsWith(':desc') ? 'desc' : 'asc'}`),
];

const REST_SORT_TARGETS: RestTarget[] = [
  { path: '/api/articles', under: '', extra: ['pagination[pageSize]=100'] },
  { path: '/api/articles', under: '', extra: ['status=draft', 'pagination[pageSize]=100'] },
  { path: '/api/articles', under: '', extra: ['fields[0]=views'] },
  { path: '/api/tags', under: 'populate[articles]', extra: [] },
  { path: '/api/categories', under: 'populate[articles]', extra: [] },
];

const restSort = fc
  .record({ shape: sortShape, form: fc.nat(REST_SORTS.length - 1), target: fc.constantFrom(...REST_SORT_TARGETS), asAdmin: fc.boolean() })
  .map(({ shape, form, target, asAdmin }) => rest(target.path, [...target.extra, ...REST_SORTS[form](restKey(target.under, 'sort'), sortList(shape))], asAdmin));

// ---- many validation errors ---------------------------------------------------------------------

const deep = (levels: number) => `${'parent { '.repeat(levels)}name${' }'.repeat(levels)}`;
const list = (count: number, item: (index: number) => string, separator = ' ') => Array.from({ length: count }, (_, index) => item(index)).join(separator);

/** Documents with more errors than graphql-js reports (100): each of a kind a validation rule reports one by one. */
const ERROR_DOCUMENTS: Array<(name: string, count: number) => { query: string; operationName?: string }> = [
  (name, count) => ({ query: `query ${name} { categories { ${list(count, (index) => `x${index}`)} } }` }),
  // 30 tokens an operation: past ~160 of them, the token limit refuses the document first
  (name, count) => ({ query: list(Math.min(count, 200), (index) => `query ${name}_${index} { categories { ${deep(11)} } }`), operationName: `${name}_${count % Math.min(count, 200)}` }),
  (name, count) => ({ query: `query ${name} { articles(${list(count, (index) => `a${index}: ${index}`, ', ')}) { title } }` }),
  (name, count) => ({ query: `query ${name} { articles { ${list(count, (index) => `...U${index}`)} } }` }),
  (name, count) => ({ query: `query ${name} { articles(filters: { or: [${list(count, (index) => `{ views: { eq: $v${index} } }`, ', ')}] }) { title } }` }),
  (name, count) => ({ query: `query ${name} { ${list(count, (index) => `categories { name(x: ${index}) }`)} }` }),
];

const validationErrors = fc
  .record({ document: fc.nat(ERROR_DOCUMENTS.length - 1), count: fc.integer({ min: 95, max: 400 }), nonce, get: fc.boolean(), asAdmin: fc.boolean() })
  .map(({ document, count, nonce: id, get, asAdmin }) => {
    const { query, operationName } = ERROR_DOCUMENTS[document](`E${id}`, count);
    return graphql(query, { operationName, get, asAdmin });
  });

// ---- all of them ----------------------------------------------------------------------------------

/** Each request named by its shape, which the run's summary counts. */
const named = (shape: string, arbitrary: fc.Arbitrary<FuzzRequest>): fc.Arbitrary<FuzzRequest> => arbitrary.map((request) => (request.kind === 'http' ? { ...request, shape } : request));

export const costlyRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  named('fragment fan-out', fanOut),
  named('GraphQL filter', graphqlFilter),
  named('REST filter', restFilter),
  named('GraphQL sort', graphqlSort),
  named('REST sort', restSort),
  named('100+ errors', validationErrors),
);
