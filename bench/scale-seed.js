'use strict';
/**
 * A data folder with `size` published articles for the scale benchmark. The related documents and
 * a handful of template articles are created through Folio's GraphQL API, so the stored shape is
 * exactly what Folio writes; then, with the server stopped (one process per data folder), the
 * store is opened through its public interface and the templates' rows (draft and published) are
 * cloned with insertMany, in transactions of about 1,000 rows. A folder holds `manifest.json` once
 * complete, and is reused as it is when asked for again.
 */
const { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { gql, seedRelations, startFolioProcess, stop, writeConfig } = require('./folio-process');
const { VOCABULARY, randomSource, randomInt, titleWords, titleOf } = require('./scale-vocabulary');

const { openStore } = require('../dist/src/storage/open-store');
const { createDocumentId } = require('../dist/src/documents/document-id');

const TEMPLATES = 5;
const ROWS_PER_BATCH = 1000;
/** the collection of the article schema, whose name is also the sequence Folio numbers its rows with */
const ARTICLES = 'articles';
/** a word is a search term once it is in this many titles: enough that updates never leave none */
const TERM_MIN_TITLES = 3;

/** views are drawn from [0, viewsRange): about 20 articles share each number, at any size */
const viewsRangeOf = (size) => Math.max(1, Math.round(size / 20));

/** The values that make article `index` its own: title, views, category, 1 to 3 tags, author. */
const articleValues = (index, related, viewsRange, random) => {
  const tags = new Set(Array.from({ length: 1 + randomInt(random, 3) }, () => related.tags[randomInt(random, related.tags.length)].documentId));
  return {
    title: titleOf(titleWords(index)),
    views: randomInt(random, viewsRange),
    category: related.categories[randomInt(random, related.categories.length)].documentId,
    tags: [...tags],
    author: related.authors[randomInt(random, related.authors.length)].documentId,
  };
};

/** `done` of `total` on stderr: one line redrawn on a terminal, a line per tenth otherwise */
const progressBar = (label, total) => {
  const started = Date.now();
  let shownTenth = -1;
  return (done) => {
    const fraction = done / total;
    const perSecond = done / Math.max((Date.now() - started) / 1000, 0.001);
    const text = `${label} [${'#'.repeat(Math.round(fraction * 30)).padEnd(30, '.')}] ${done}/${total} ${Math.round(perSecond)}/s eta ${Math.round((total - done) / perSecond)} s`;
    if (process.stderr.isTTY) process.stderr.write(`\r${text}${done === total ? '\n' : ''}`);
    else if (Math.floor(fraction * 10) > shownTenth) {
      shownTenth = Math.floor(fraction * 10);
      process.stderr.write(`${text}\n`);
    }
  };
};

/** The words in at least TERM_MIN_TITLES titles: the terms the title filters search for. */
const searchTerms = (size) => {
  const titles = new Map(VOCABULARY.map((word) => [word, 0]));
  for (let index = 0; index < size; index += 1) for (const word of new Set(titleWords(index))) titles.set(word, titles.get(word) + 1);
  return VOCABULARY.filter((word) => titles.get(word) >= TERM_MIN_TITLES);
};

const createTemplates = async (url, related, viewsRange, random) => {
  const documentIds = [];
  for (let index = 0; index < TEMPLATES; index += 1) {
    const data = await gql(url, 'mutation($d: ArticleInput!) { createArticle(data: $d) { documentId } }', { d: articleValues(index, related, viewsRange, random) });
    documentIds.push(data.createArticle.documentId);
  }
  return documentIds;
};

const cloneTemplates = async (dataDir, templateIds, size, related, viewsRange, random) => {
  const store = await openStore({ client: 'embedded' }, dataDir);
  try {
    const articles = store.collection(ARTICLES);
    const stored = await articles.find({ documentId: { $in: templateIds } }, { sort: [['id', 1]] });
    const rowsOf = templateIds.map((documentId) => stored.filter((row) => row.documentId === documentId));
    const documentsPerBatch = Math.max(1, Math.round(ROWS_PER_BATCH / rowsOf[0].length));
    const documentIds = [...templateIds];
    const progress = progressBar(`seeding ${size} articles`, size);
    progress(documentIds.length);
    while (documentIds.length < size) {
      const end = Math.min(documentIds.length + documentsPerBatch, size);
      // one transaction a batch: its ids and rows are committed together
      await store.transaction(async () => {
        const batch = [];
        for (let index = documentIds.length; index < end; index += 1) {
          const documentId = createDocumentId();
          const values = articleValues(index, related, viewsRange, random);
          for (const row of rowsOf[index % TEMPLATES]) batch.push({ ...row, ...values, id: await store.nextSequence(ARTICLES), documentId });
          documentIds.push(documentId);
        }
        await articles.insertMany(batch);
      });
      progress(documentIds.length);
    }
    return documentIds;
  } finally {
    await store.close();
  }
};

/**
 * The seeded folder `dir` for `size` articles (made unless complete already):
 * `{ configDir, dataDir, manifest: { size, documentIds, viewsRange, terms, categories } }`.
 */
const seededFolder = async (dir, size) => {
  const configDir = join(dir, 'config');
  const dataDir = join(dir, 'data');
  const manifestPath = join(dir, 'manifest.json');
  if (existsSync(manifestPath)) {
    process.stderr.write(`reusing the ${size}-article folder ${dir}\n`);
    return { configDir, dataDir, manifest: JSON.parse(readFileSync(manifestPath, 'utf8')) };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeConfig(dir);
  const random = randomSource(size);
  const viewsRange = viewsRangeOf(size);
  const folio = await startFolioProcess('bin/folio.js', configDir, dataDir);
  let related;
  let templateIds;
  try {
    related = await seedRelations(folio.url);
    templateIds = await createTemplates(folio.url, related, viewsRange, random);
  } finally {
    await stop(folio);
  }
  const documentIds = await cloneTemplates(dataDir, templateIds, size, related, viewsRange, random);
  const manifest = { size, documentIds, viewsRange, terms: searchTerms(size), categories: related.categories.map(({ name }) => name) };
  writeFileSync(manifestPath, JSON.stringify(manifest));
  return { configDir, dataDir, manifest };
};

module.exports = { seededFolder };
