import { parse } from 'graphql';
import { operationDepths } from '../../src/graphql/operation-depth';
import { fragmentFanOut } from '../support/hostile-documents';

const depths = (query: string) => [...operationDepths(parse(query))].map(([operation, depth]) => [operation.name?.value ?? '', depth]);

test('the root field is depth 0, each selection set below one more; introspection fields do not count', () => {
  expect(depths('{ articles }')).toEqual([['', 0]]);
  expect(depths('{ articles { title } }')).toEqual([['', 1]]);
  expect(depths('query A { articles { category { name } } } query B { tags { name } __schema { types { fields { name } } } }')).toEqual([['A', 2], ['B', 1]]);
});

test('fragments and inline fragments count where they are spread', () => {
  expect(depths('{ articles { ...F } } fragment F on Article { category { ... on Category { articles { title } } } }')).toEqual([['', 3]]);
});

test('a fragment spread many times is walked once: 2^60 paths at once', () => {
  // graphql-depth-limit walked every path: 2^25 took 11 s
  expect(depths(fragmentFanOut(60, 'articles { category { name } }'))).toEqual([['', 3]]);
});

test('unknown fragments and cycles count 0 there (graphql refuses them)', () => {
  expect(depths('{ articles { ...Missing } }')).toEqual([['', 1]]);
  expect(depths('{ articles { ...A } } fragment A on Article { category { ...B } } fragment B on Category { articles { ...A } }')).toEqual([['', 3]]);
});
