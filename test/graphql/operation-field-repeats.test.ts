import { parse } from 'graphql';
import { mostRepeatedField } from '../../src/graphql/operation-field-repeats';
import { fragmentFanOut } from '../support/hostile-documents';

const most = (query: string) => mostRepeatedField(parse(query));

test('counts fields by response name in each selection set, nested sets judged too', () => {
  expect(most('{ articles { title } tags { name } }').count).toBe(1);
  expect(most('{ articles { title title(x: 1) a: title } }')).toEqual({ name: 'title', count: 2 });
  expect(most('{ a: articles { title } a: tags { name } a: categories { name } }')).toEqual({ name: 'a', count: 3 });
});

test('inline fragments add to their set; a named fragment counts once per set, however often it is spread', () => {
  expect(most('{ articles { title ... on Article { title } ...F ...F } } fragment F on Article { title }')).toEqual({ name: 'title', count: 3 });
  expect(most(`{ categories { ${Array.from({ length: 40 }, (_, index) => `...F${index}`).join(' ')} } } ${Array.from({ length: 40 }, (_, index) => `fragment F${index} on Category { name }`).join(' ')}`)).toEqual({ name: 'name', count: 40 });
});

test('linear through fragment fan-out (2^60 paths), and a cycle counts nothing', () => {
  expect(most(fragmentFanOut(60)).count).toBe(1);
  expect(most('{ articles { ...A } } fragment A on Article { title ...A }')).toEqual({ name: 'title', count: 1 });
});
