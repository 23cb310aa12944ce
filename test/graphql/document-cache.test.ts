import { GraphQLError, parse, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { createParsedDocumentCache, dropTokens } from '../../src/graphql/document-cache';

const SOURCE = '{ articles(filters: { title: { eq: "a" } }) { documentId title } }';

const firstField = (document: DocumentNode) => (document.definitions[0] as OperationDefinitionNode).selectionSet.selections[0];

test('a cached document keeps no token list: its locations hold none', () => {
  const cache = createParsedDocumentCache();
  cache.set(SOURCE, parse(SOURCE));
  const cached = cache.get(SOURCE)!;
  const locations = [cached.loc, cached.definitions[0].loc, firstField(cached).loc];
  expect(locations.every((loc) => loc !== undefined && loc.startToken === null && loc.endToken === null)).toBe(true);
});

test('errors on a document without tokens still say where they are', () => {
  const document = dropTokens(parse(SOURCE));
  const error = new GraphQLError('boom', { nodes: [firstField(document)] });
  expect(error.locations).toEqual([{ line: 1, column: 3 }]);
});
