import type { Plugin } from '@envelop/core';
import type { DocumentNode } from 'graphql';
import { fieldRepeatError } from '../../errors/graphql-errors';
import { mostRepeatedField } from '../operation-field-repeats';

/**
 * A selection set may give one response name to at most `maxRepeats` fields (operation-field-repeats.ts):
 * checked before graphql-js validates, whose merge rule compares every pair of them.
 */
export const useFieldRepeatLimit = (maxRepeats: number): Plugin => {
  // yoga hands the same DocumentNode for the same query text: count once per document
  const counted = new WeakMap<DocumentNode, { name: string; count: number }>();
  return {
    onValidate({ params, setResult }) {
      let most = counted.get(params.documentAST);
      if (!most) counted.set(params.documentAST, (most = mostRepeatedField(params.documentAST)));
      if (most.count > maxRepeats) setResult([fieldRepeatError(most.name, most.count, maxRepeats)]);
    },
  };
};
