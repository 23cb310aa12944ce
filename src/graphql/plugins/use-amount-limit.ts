import type { Plugin } from '@envelop/core';
import { createGraphQLError } from '@graphql-tools/utils';
import { getNamedType, getNullableType, isListType, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type GraphQLSchema } from 'graphql';

/**
 * `amountLimit`: no list in a response may hold more items. Paginated lists are capped before
 * they are read; this is the backstop for every other list (hand-written resolvers included).
 */

const longestList = (value: unknown, limit: number): number | undefined => {
  if (Array.isArray(value)) {
    if (value.length > limit) return value.length;
    for (const item of value) {
      const found = longestList(item, limit);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) {
      const found = longestList(item, limit);
      if (found !== undefined) return found;
    }
  }
  return undefined;
};

export interface AmountLimitOptions {
  amountLimit: number;
  /** the pagination cap: paginated content-type lists never hold more */
  maxLimit: number;
  /** names of the content-types' object types (their lists are paginated) */
  contentTypeNames: ReadonlySet<string>;
}

const COLLECTION_SUFFIXES = ['EntityResponseCollection', 'RelationResponseCollection'];

/**
 * Whether an operation selects a list whose length nothing bounds before it is read: one that
 * is not a paginated list of documents (components, media, hand-written fields). Only then is
 * the result walked.
 */
const selectsUnboundedList = (schema: GraphQLSchema, document: DocumentNode, options: AmountLimitOptions): boolean => {
  if (options.maxLimit > options.amountLimit) return true;
  const typeInfo = new TypeInfo(schema);
  let unbounded = false;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field() {
        const field = typeInfo.getFieldDef();
        if (!field || !isListType(getNullableType(field.type))) return;
        const named = getNamedType(field.type).name;
        const parent = typeInfo.getParentType()?.name ?? '';
        const paginatedDocuments = options.contentTypeNames.has(named) && field.args.some((arg) => arg.name === 'pagination');
        const connectionNodes =
          field.name === 'nodes' && options.contentTypeNames.has(named) && COLLECTION_SUFFIXES.some((suffix) => parent === `${named}${suffix}`);
        if (!paginatedDocuments && !connectionNodes) unbounded = true;
      },
    }),
  );
  return unbounded;
};

export const useAmountLimit = (options: AmountLimitOptions): Plugin => {
  const { amountLimit } = options;
  // yoga hands the same DocumentNode for the same query text: decide once per document
  const needsWalk = new WeakMap<DocumentNode, boolean>();
  return {
    onExecute({ args }) {
      let walk = needsWalk.get(args.document);
      if (walk === undefined) needsWalk.set(args.document, (walk = selectsUnboundedList(args.schema, args.document, options)));
      if (!walk) return;
      return {
        onExecuteDone({ result, setResult }) {
          if (!result || Symbol.asyncIterator in result) return;
          const found = longestList(result.data, amountLimit);
          if (found === undefined) return;
          setResult({
            data: null,
            errors: [
              createGraphQLError(`A list of ${found} items exceeds the amount limit of ${amountLimit}`, {
                extensions: { code: 'LIMIT_EXCEEDED', http: { status: 400 } },
              }),
            ],
          });
        },
      };
    },
  };
};
