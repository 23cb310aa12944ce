'use strict';
/**
 * The read workloads of the scale benchmark. Each draws its query afresh for every request (a
 * search term, a views number, a category, a page, a documentId from the seeded folder's manifest),
 * so no cache of a fixed query can answer, and says whether an answer found anything.
 */

const PAGE_SIZE = 25;
/** the deep page of the sorted workload, when the collection has that many pages */
const DEEP_PAGE = 200;
/** the sorted and listed pages are drawn among this many */
const PAGES_DRAWN = 20;

const pick = (list) => list[Math.floor(Math.random() * list.length)];
/** `count` different items of `list` (all of it when shorter) */
const pickSome = (list, count) => {
  const picked = new Set();
  while (picked.size < Math.min(count, list.length)) picked.add(pick(list));
  return [...picked];
};
const between = (low, high) => low + Math.floor(Math.random() * (high - low + 1));

const get = (path) => ({ method: 'GET', path });
const post = (query, variables) => ({ method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });

const restTotal = (body) => body.meta.pagination.total > 0;
const restPage = (body) => Array.isArray(body.data) && body.data.length > 0;

const CONNECTION = 'query($t: String) { articles_connection(filters: { title: { containsi: $t } }) { nodes { documentId title } pageInfo { total } } }';
const NESTED = 'query($v: Int) { articles(filters: { views: { eq: $v } }, pagination: { pageSize: 10 }) { title category { name } tags { name } author { name } } }';

const lastPage = (size) => Math.max(1, Math.floor(size / PAGE_SIZE));

/** The pages the sorted workload draws among: the PAGES_DRAWN up to page DEEP_PAGE, or to the last page when there are fewer. */
const deepPages = (size) => {
  const to = Math.min(DEEP_PAGE, lastPage(size));
  return { from: Math.max(1, to - PAGES_DRAWN + 1), to };
};

/** `[{ name, graphql, request() → { method, path, headers?, body? }, matches(parsed body) → boolean }]` */
const scaleWorkloads = ({ size, documentIds, viewsRange, terms, categories }) => {
  const deep = deepPages(size);
  const term = () => encodeURIComponent(pick(terms));
  return [
    { name: 'REST list', request: () => get(`/api/articles?pagination[page]=${between(1, Math.min(PAGES_DRAWN, lastPage(size)))}`), matches: restPage },
    { name: 'REST title $containsi', request: () => get(`/api/articles?filters[title][$containsi]=${term()}`), matches: restTotal },
    { name: 'REST views $eq', request: () => get(`/api/articles?filters[views][$eq]=${between(0, viewsRange - 1)}`), matches: restTotal },
    {
      name: 'REST category name $eq + populate',
      request: () => get(`/api/articles?filters[category][name][$eq]=${encodeURIComponent(pick(categories))}&populate=category`),
      matches: (body) => restTotal(body) && body.data[0].category !== null,
    },
    {
      name: 'REST sort views:desc, deep page',
      request: () => get(`/api/articles?sort=views:desc&pagination[page]=${between(deep.from, deep.to)}`),
      matches: restPage,
    },
    { name: 'REST get one by documentId', request: () => get(`/api/articles/${pick(documentIds)}`), matches: (body) => body.data !== null && typeof body.data.documentId === 'string' },
    {
      name: 'GraphQL connection title containsi',
      graphql: true,
      request: () => post(CONNECTION, { t: pick(terms) }),
      matches: (body) => body.data.articles_connection.pageInfo.total > 0,
    },
    {
      name: 'GraphQL list, nested relations',
      graphql: true,
      request: () => post(NESTED, { v: between(0, viewsRange - 1) }),
      matches: (body) => body.data.articles.length > 0 && body.data.articles[0].category !== null,
    },
  ];
};

/**
 * The write workload (issue 33's target: p99 at c = 50 and 50,000 articles): a REST create of a published article
 * with a category, an author and 3 tags, a title of the seeded vocabulary's words, as a full-access token.
 * `related`: `{ categories, tags, authors }`, documentIds. Each answer's documentId goes to `created`, so the run
 * can remove them and leave the seeded folder its size.
 */
const createWorkload = ({ terms, viewsRange }, related, token, created) => ({
  name: 'REST create (category, author, 3 tags)',
  write: true,
  request: () => ({
    method: 'POST',
    path: '/api/articles',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      data: { title: `${pickSome(terms, 4).join(' ')} created`, views: between(0, viewsRange - 1), category: pick(related.categories), author: pick(related.authors), tags: pickSome(related.tags, 3) },
    }),
  }),
  matches: (body) => typeof body.data?.documentId === 'string',
  onAnswer: (status, body) => {
    if (status === 201) created.push(JSON.parse(body).data.documentId);
  },
});

module.exports = { scaleWorkloads, createWorkload, deepPages };
