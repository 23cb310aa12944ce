import { nestingDepth } from '../../src/graphql/plugins/use-nesting-limit';

test.each([
  ['{ a }', 1],
  ['{ a { b(x: { y: [1, 2] }) } }', 5],
  ['{ a(s: "{{{{[[[(((") }', 2],
  ['{ a(s: """ {{{ \\""" {{{ """) }', 2],
  ['# {{{{{{\n{ a }', 1],
  ['{ a(s: "\\" {{{") }', 2],
  ['', 0],
])('%j nests %i deep', (source, depth) => {
  expect(nestingDepth(source, 100)).toBe(depth);
});

test('stops counting past the limit', () => {
  expect(nestingDepth('{'.repeat(1_000_000), 256)).toBe(257);
});
