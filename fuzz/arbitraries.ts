import fc from 'fast-check';
import { costlyRequest } from './costly-shapes';
import type { FuzzRequest } from './fuzz-request';
import { literalOf } from './graphql-literal';

/**
 * Grammars of Folio's surfaces, with the example models' real names mixed with garbage: REST
 * query strings and bodies, GraphQL documents and variables, multipart forms, raw HTTP.
 */

export interface Known {
  /** documentIds of seeded articles (and a few of other types) */
  documentIds: string[];
}

const FIELDS = ['title', 'slug', 'summary', 'body', 'views', 'rating', 'featured', 'publishDate', 'kind', 'extra', 'createdAt', 'updatedAt', 'publishedAt', 'id', 'documentId', 'locale', 'category', 'tags', 'author', 'cover', 'gallery', 'seo', 'sections', 'name', 'email', 'articles', 'nope'];
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];
const OPERATORS = ['$eq', '$eqi', '$ne', '$nei', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn', '$contains', '$containsi', '$notContains', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi', '$null', '$notNull', '$between', '$or', '$and', '$not', '$regex', '$where', '$expr'];
const TRICKY_VALUES = ['', 'foo', 'Article', '0', '-1', '1e400', '-0', 'NaN', 'Infinity', 'true', 'null', '2024-01-01', '2024-13-45T99:99', '9'.repeat(40), 'a'.repeat(1500), '[object Object]', '%00', '\u0000', '😀', '.*', '(a+)+$', '$where', `a@${'.'.repeat(3000)}@`];

const shortString = fc.string({ maxLength: 24 });
const value = fc.oneof(fc.constantFrom(...TRICKY_VALUES), shortString, fc.integer().map(String), fc.double().map(String));
const fieldName = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...FIELDS) }, { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) });
const operator = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...OPERATORS) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) });

const queryKey = fc.oneof(
  fc.tuple(fieldName, operator).map(([field, op]) => `filters[${field}][${op}]`),
  fc.tuple(fc.constantFrom('$or', '$and'), fc.nat(3), fieldName, operator).map(([logic, index, field, op]) => `filters[${logic}][${index}][${field}][${op}]`),
  fc.tuple(fieldName, fieldName, operator).map(([relation, field, op]) => `filters[${relation}][${field}][${op}]`),
  fc.tuple(fieldName, fc.nat(30)).map(([field, index]) => `filters[${field}][$in][${index}]`),
  fc.constantFrom(
    'populate', 'populate[0]', 'populate[category]', 'populate[tags][populate]', 'populate[tags][populate][articles][populate]', 'populate[sections][on][shared.quote][populate]',
    'populate[seo][populate]', 'populate[tags][filters][name][$eq]', 'populate[tags][sort]', 'populate[*]', 'fields[0]', 'fields[1]', 'fields', 'sort', 'sort[0]', 'sort[1]',
    'pagination[page]', 'pagination[pageSize]', 'pagination[start]', 'pagination[limit]', 'pagination[withCount]', 'status', 'locale', '_q', 'publicationState',
    'publicationFilter', 'hasPublishedVersion', 'filters', 'filters[title]', 'filters[kind][0]', '__proto__[polluted]', 'constructor[prototype][polluted]',
  ),
  fc.string({ maxLength: 10 }),
);

const encode = (text: string, raw: boolean) => (raw ? text.replace(/[#&\s]/g, encodeURIComponent) : encodeURIComponent(text));
export const queryString = fc
  .tuple(fc.array(fc.tuple(queryKey, value, fc.boolean()), { maxLength: 6 }))
  .map(([pairs]) => pairs.map(([key, text, raw]) => `${encode(key, raw)}=${encode(text, raw)}`).join('&'));

const jsonKey = fc.oneof(fc.constantFrom(...FIELDS, ...PROTOTYPE_KEYS, '__component', '__typename', 'id', 'connect', 'disconnect', 'set', 'position', 'locale', 'status', 'publishedAt'), fc.string({ maxLength: 8 }));
const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.constantFrom(1e308, -0, 2 ** 53 + 1, 3.5),
    fc.constantFrom(...TRICKY_VALUES),
    shortString,
    fc.constantFrom('shared.quote', 'shared.rich-text', 'shared.media', 'shared.seo', 'api::article.article'),
    fc.array(tie('json'), { maxLength: 4 }),
    fc.dictionary(jsonKey, tie('json'), { maxKeys: 5 }),
  ),
}));

/** JSON.stringify leaves out a `__proto__` key set by assignment; the text keeps every key the generator chose. */
const jsonText = (valueOf: unknown): string => JSON.stringify(valueOf) ?? 'null';

const deepText = fc.tuple(fc.integer({ min: 50, max: 5000 }), fc.constantFrom('[', '{"a":')).map(([depth, open]) => `{"data":${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}}`);

const restBody = fc.oneof(
  { weight: 6, arbitrary: fc.dictionary(jsonKey, json, { maxKeys: 6 }).map((data) => jsonText({ data })) },
  { weight: 2, arbitrary: json.map(jsonText) },
  { weight: 1, arbitrary: deepText },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom('{"data":{"title":"x","extra":{"__proto__":{"polluted":1}}}}', '{"data":{"sections":[{"__component":"toString"}]}}', '{"data":{"seo":{"id":1,"metaTitle":"m"}}}', '{"data":', '') },
);

export const restRequest = (known: Known): fc.Arbitrary<FuzzRequest> => {
  const id = fc.oneof(fc.constantFrom(...known.documentIds), shortString.map(encodeURIComponent), fc.constantFrom('%', '..', '1', '-1', '%2F'));
  const readPath = fc.oneof(
    fc.constantFrom('/api/articles', '/api/categories', '/api/tags', '/api/authors', '/api/homepage', '/api/upload/files', '/api/users', '/api/users/me', '/api/users/count', '/api/nope', '/_health', '/api/users-permissions/roles', '/api/users-permissions/permissions'),
    id.map((documentId) => `/api/articles/${documentId}`),
    id.map((roleId) => `/api/users-permissions/roles/${roleId}`),
    id.map((documentId) => `/api/tags/${documentId}`),
  );
  const read = fc.record({ path: readPath, query: queryString, asAdmin: fc.boolean(), v4: fc.boolean() }).map(
    ({ path, query, asAdmin, v4 }): FuzzRequest => ({ kind: 'http', method: 'GET', path: `${path}?${query}`, headers: v4 ? { 'strapi-response-format': 'v4' } : {}, asAdmin }),
  );
  const writePath = fc.oneof(
    fc.constantFrom('POST /api/articles', 'POST /api/tags', 'POST /api/categories', 'PUT /api/homepage', 'POST /api/auth/local', 'POST /api/auth/local/register', 'POST /api/auth/change-password', 'DELETE /api/nope', 'POST /api/users-permissions/roles'),
    id.map((documentId) => `PUT /api/articles/${documentId}`),
    id.map((roleId) => `PUT /api/users-permissions/roles/${roleId}`),
    id.map((roleId) => `DELETE /api/users-permissions/roles/${roleId}`),
    id.map((documentId) => `DELETE /api/tags/${documentId}`),
  );
  const write = fc.record({ target: writePath, query: queryString, body: restBody, asAdmin: fc.boolean() }).map(({ target, query, body, asAdmin }): FuzzRequest => {
    const [method, path] = target.split(' ');
    return { kind: 'http', method, path: `${path}?${query}`, headers: { 'content-type': 'application/json' }, body, asAdmin };
  });
  return fc.oneof({ weight: 3, arbitrary: read }, { weight: 2, arbitrary: write });
};

const ROOT_FIELDS = ['articles', 'articles_connection', 'article', 'categories', 'tags', 'authors', 'homepage', 'uploadFiles', 'me', 'nope'];
const SELECTIONS = ['documentId', 'title', 'views', 'extra', 'seo { metaTitle keywords { id } }', 'sections { __typename ... on ComponentSharedQuote { text } }', 'category { name articles { title } }', 'tags(pagination: { limit: 100 }) { name articles { documentId } }', 'nodes { title }', 'pageInfo { total }', '__typename', 'nope', '...F'];

const graphqlArgument = fc.oneof(
  fc.tuple(fieldName, fc.constantFrom('eq', 'containsi', 'in', 'gt', 'between', 'null', 'and', 'or', 'not'), fc.oneof(fc.constantFrom('"x"', '1', '1e400', '-1', 'true', 'null', '[1, "a"]', '{}', '$v'), shortString.map((text) => JSON.stringify(text)))).map(
    ([field, op, literal]) => `filters: { ${field}: { ${op}: ${literal} } }`,
  ),
  fc.constantFrom('pagination: { limit: -1 }', 'pagination: { limit: 100000 }', 'pagination: { page: 2, pageSize: 100 }', 'pagination: $v', 'sort: "title:desc"', 'sort: ["nope"]', 'status: DRAFT', 'locale: "xx"', 'documentId: "nope"'),
);

const graphqlDocument = fc
  .record({
    root: fc.constantFrom(...ROOT_FIELDS),
    args: fc.array(graphqlArgument, { maxLength: 3 }),
    selections: fc.array(fc.constantFrom(...SELECTIONS), { minLength: 1, maxLength: 5 }),
    aliases: fc.nat(40),
    fragment: fc.boolean(),
  })
  .map(({ root, args, selections, aliases, fragment }) => {
    const field = `${root}${args.length ? `(${args.join(', ')})` : ''} { ${selections.join(' ')} }`;
    const fields = Array.from({ length: Math.max(1, aliases) }, (_, index) => `a${index}: ${field}`).join(' ');
    return `query Q($v: JSON) { ${fields} }${fragment ? ' fragment F on Article { title }' : ''}`;
  });

/** Writes through the `relations` argument and the role mutations, with paths and values of any shape. */
const writeDocument = fc.oneof(
  fc
    .tuple(fc.constantFrom('createArticle(', 'updateArticle(documentId: "nope", ', 'updateHomepage('), fc.array(fc.oneof(fieldName, fc.nat(3).map(String)), { maxLength: 4 }), json)
    .map(([call, path, relation]) => `mutation { a: ${call}data: { title: "x" }, relations: [{ path: ${JSON.stringify(path)}, value: ${literalOf(relation)} }]) { documentId } }`),
  fc
    .tuple(fc.constantFrom('createUsersPermissionsRole(', 'updateUsersPermissionsRole(id: "3", ', 'deleteUsersPermissionsRole(id: "4"'), fc.dictionary(fc.constantFrom('name', 'description', 'type', 'permissions', 'users', 'nope'), shortString, { maxKeys: 4 }))
    .map(([call, data]) => (call.startsWith('delete') ? `mutation { ${call}) { ok } }` : `mutation { ${call}data: ${literalOf(data)}) { ok } }`)),
);

/** A valid-looking document broken in a random place: cut, doubled, or wrapped in deep brackets. */
const mangled = fc.oneof(
  fc.tuple(graphqlDocument, fc.nat()).map(([text, at]) => text.slice(0, at % (text.length + 1))),
  fc.tuple(graphqlDocument, fc.nat(), fc.constantFrom('{', '}', '(', '"', '...', '$', '@skip', '#', '"""', '1e400')).map(([text, at, insert]) => {
    const cut = at % (text.length + 1);
    return `${text.slice(0, cut)}${insert}${text.slice(cut)}`;
  }),
  fc.integer({ min: 100, max: 20_000 }).map((depth) => `{ articles${' { articles'.repeat(depth)}${' }'.repeat(depth + 1)}`),
  fc.string({ maxLength: 60 }),
);

export const graphqlRequest = fc
  .record({
    query: fc.oneof({ weight: 3, arbitrary: graphqlDocument }, { weight: 2, arbitrary: mangled }, { weight: 1, arbitrary: writeDocument }),
    variables: fc.oneof(json.map(jsonText), fc.constantFrom('{"v":', '[1]', '"x"', '{"v":1e400}')),
    get: fc.boolean(),
    asAdmin: fc.boolean(),
    accept: fc.constantFrom('application/json', 'application/graphql-response+json', 'text/event-stream', 'image/png', '*/*'),
  })
  .map(({ query, variables, get, asAdmin, accept }): FuzzRequest =>
    get
      ? { kind: 'http', method: 'GET', path: `/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent(variables)}`, headers: { accept }, asAdmin }
      : { kind: 'http', method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json', accept }, body: `{"query":${JSON.stringify(query)},"variables":${variables}}`, asAdmin },
  );

const BOUNDARY = 'fuzzboundary';
const part = fc.record({
  name: fc.constantFrom('files', 'files', 'fileInfo', 'ref', 'refId', 'field', 'other', ''),
  filename: fc.option(fc.constantFrom('a.txt', 'b.png', '../../etc/passwd', 'ü.jpg', '', 'x'.repeat(300)), { nil: undefined }),
  type: fc.constantFrom('text/plain', 'image/png', 'application/octet-stream', 'bogus'),
  content: fc.oneof(shortString, json.map(jsonText), fc.constantFrom('\x89PNG\r\n\x1a\n', 'GIF89a', '\xff\xd8\xff')),
});

export const multipartRequest = fc
  .record({ parts: fc.array(part, { maxLength: 4 }), ending: fc.constantFrom('closed', 'missing', 'cut'), boundary: fc.constantFrom(BOUNDARY, 'other', ''), asAdmin: fc.boolean() })
  .map(({ parts, ending, boundary, asAdmin }): FuzzRequest => {
    const body = parts
      .map(({ name, filename, type, content }) =>
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}\r\n${filename === undefined ? '' : `Content-Type: ${type}\r\n`}\r\n${content}\r\n`,
      )
      .join('');
    const closed = ending === 'closed' ? `${body}--${BOUNDARY}--\r\n` : ending === 'cut' ? body.slice(0, Math.floor(body.length / 2)) : body;
    return { kind: 'http', method: 'POST', path: '/api/upload', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body: closed, asAdmin };
  });

export const rawRequest = fc
  .record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'HEAD', 'FOO'),
    path: fc.oneof(fc.constantFrom('/', '//', '///', '//x:99999/api/articles', '/graphql', '/graphql/x', '/api/articles', '/api/%', '/uploads/../package.json', '/api/docs/', '*', 'http://elsewhere/api/articles', '/_health'), fc.string({ maxLength: 20 }).map((text) => `/${encodeURI(text)}`)),
    host: fc.constantFrom('localhost', 'bad host', 'x:99999', '[::1', '', undefined),
    extra: fc.constantFrom('', `X-Big: ${'a'.repeat(20_000)}\r\n`, 'Content-Type: text/plain\r\n', 'Content-Type: application/json\r\n', 'Transfer-Encoding: gzip\r\n', 'Expect: 100-continue\r\n', 'Origin: http://evil.example\r\n'),
    body: fc.oneof(fc.constant(undefined), shortString, fc.constant('{"query":"{ __typename }"}')),
    chunked: fc.boolean(),
  })
  .map(({ method, path, host, extra, body, chunked }): FuzzRequest => {
    const head = `${method} ${path} HTTP/1.1\r\n${host === undefined ? '' : `Host: ${host}\r\n`}${extra}Connection: close\r\n`;
    if (body === undefined) return { kind: 'raw', text: `${head}\r\n` };
    const bytes = Buffer.byteLength(body);
    return { kind: 'raw', text: chunked ? `${head}Transfer-Encoding: chunked\r\n\r\n${bytes.toString(16)}\r\n${body}\r\n0\r\n\r\n` : `${head}Content-Length: ${bytes}\r\n\r\n${body}` };
  });

/** The costly shapes (costly-shapes.ts) are one request in ten: a 30 s run sends each of them a dozen times or more. */
export const anyRequest = (known: Known): fc.Arbitrary<FuzzRequest> =>
  fc.oneof(
    { weight: 4, arbitrary: restRequest(known) },
    { weight: 3, arbitrary: graphqlRequest },
    { weight: 1, arbitrary: multipartRequest },
    { weight: 1, arbitrary: rawRequest },
    { weight: 1, arbitrary: costlyRequest },
  );
