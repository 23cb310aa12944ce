import { buildSchema } from 'graphql';
import { usesDirective } from '../../src/directives/uses-directive';

/** A directive pass is skipped only when nothing carries its directive: on a type, a field, an argument or an input field. */

const schemaWith = (marked: string) =>
  buildSchema(`
    directive @mark on OBJECT | INPUT_OBJECT | ENUM | FIELD_DEFINITION | INPUT_FIELD_DEFINITION | ARGUMENT_DEFINITION
    directive @other on FIELD_DEFINITION
    type Query { items(first: Int): [Item] @other }
    type Item { name: String }
    input ItemInput { name: String }
    enum Kind { A B }
    ${marked}
  `);

test.each([
  ['an object type', 'extend type Item @mark'],
  ['a field', 'extend type Item { title: String @mark }'],
  ['an argument', 'extend type Query { find(id: ID @mark): Item }'],
  ['an input field', 'extend input ItemInput { title: String @mark }'],
  ['an input type', 'extend input ItemInput @mark'],
  ['an enum', 'extend enum Kind @mark'],
])('finds the directive on %s', (_, marked) => {
  expect(usesDirective(schemaWith(marked), 'mark')).toBe(true);
});

test('none where only other directives are written', () => {
  expect(usesDirective(schemaWith(''), 'mark')).toBe(false);
  expect(usesDirective(schemaWith(''), 'other')).toBe(true);
});
