import type { Plugin } from '@envelop/core';
import { getNamedType, getNullableType, isListType, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type GraphQLSchema } from 'graphql';

/**
 * `amountLimit`: no list in a `/graphql` answer holds more items. Paginated lists are capped
 * before they are read (their page size is clamped to it, so `pageInfo` tells the truth); this
 * caps every other list (components, media, hand-written fields) by truncating it, and says so in
 * the answer's `extensions.amountLimit: { limit, truncated: [paths] }`. Introspection is never
 * capped: a schema of any size can be read. REST is held by `api.rest.maxLimit` instead.
 */

/** Truncates, in place, every list under `value` longer than `limit`, adding the paths of those it cut to `truncated`. */
const capLists = (value: unknown, limit: number, path: string, truncated: string[]): void => {
  if (value === null || typeof value !== 'object') return;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    const at = path ? `${path}.${key}` : key;
    if (Array.isArray(item) && item.length > limit) {
      item.length = limit;
      truncated.push(at);
    }
    capLists(item, limit, at, truncated);
  }
};

/** Introspection fields (`__schema`, `__type`) are left whole. */
const withoutIntrospection = (data: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(data).filter(([key]) => !key.startsWith('__')));

export interface AmountLimitOptions {
  amountLimit: number;
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
          if (!result || Symbol.asyncIterator in result || !result.data) return;
          const truncated: string[] = [];
          capLists(withoutIntrospection(result.data), amountLimit, '', truncated);
          if (truncated.length === 0) return;
          setResult({ ...result, extensions: { ...result.extensions, amountLimit: { limit: amountLimit, truncated } } });
        },
      };
    },
  };
};
