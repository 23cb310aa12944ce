import { GraphQLError, GraphQLScalarType } from 'graphql';
import { scalarResolvers } from '../../src/resolvers/scalars';
import type { Models } from '../../src/models/types';

/** Every scalar refuses a bad variable with a GraphQLError (BAD_USER_INPUT), never an error the pipeline masks as unexpected. */

const scalars = scalarResolvers({ contentTypes: new Map() } as unknown as Models) as Record<string, GraphQLScalarType>;

test.each(['Time', 'Date', 'DateTime', 'Long', 'I18NLocaleCode'])('%s refuses an object whose toString is not a function with a GraphQLError', (name) => {
  let thrown: unknown;
  try {
    scalars[name].parseValue({ toString: 0 });
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(GraphQLError);
});

test('Time still reads a time', () => {
  expect(scalars.Time.parseValue('14:30:00.000')).toBe('14:30:00.000');
});
