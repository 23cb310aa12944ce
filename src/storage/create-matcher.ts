import type * as MingoCoreModule from 'mingo/types/core';
import type * as MingoQueryModule from 'mingo/types/query';
import type * as MingoQueryOperators from 'mingo/types/operators/query';
import { assertSafeFilter, UnsafeFilterError } from './filter-guard';
import type { Filter, StoredDocument } from './types';
import { compileValuePredicate, readPlainPath, THROUGH_ARRAY } from './simple-conditions';
import { textPatternOf, textPredicate } from './text-form';

/**
 * Folio filters tested on documents held in memory: the embedded engine's per-document path, and whatever above
 * the storage layer tests one document (subscriptions, component lists, relation filters).
 */

type MingoQueryOperator = typeof MingoQueryOperators.$regex;

/** Folio's `$asText` (text-form), as mingo calls a query operator: the field's path, the operand, options. */
const $asText: MingoQueryOperator = (selector, operand) => {
  const pattern = textPatternOf(operand);
  if (!pattern) throw new UnsafeFilterError('$asText needs { $regex, $options? }', selector);
  const matches = textPredicate(pattern);
  const path = selector.split('.');
  return (document) => {
    const value = readPlainPath(document as StoredDocument, path);
    return value !== THROUGH_ARRAY && matches(value);
  };
};

interface Mingo {
  Query: typeof MingoQueryModule.Query;
  context: ReturnType<typeof MingoCoreModule.Context.init>;
}

let mingo: Mingo | undefined;

/**
 * mingo, loaded by the first filter that needs it (most run as native predicates, below): ~50 modules that every
 * process and reader thread loaded at start. Only the query operators Folio generates are registered: anything
 * else (`$where`, `$expr`, `$function`, ...) is unknown to mingo even if the filter guard were bypassed, and
 * scripting is off as a second lock.
 *
 * tsconfig resolves modules the node10 way, which ignores mingo's package "exports": the types come from its .d.ts
 * paths, the code from the exported entry points. `mingo/query` is the Query without preloaded operators;
 * `mingo/core` the Context alone: `mingo` itself loads every operator of every kind (~250 modules, 0.13-0.18 s in
 * each process and each reader thread, against ~0.05 s for these three).
 */
function loadMingo(): Mingo {
  if (mingo) return mingo;
  const { Context } = require('mingo/core') as typeof MingoCoreModule;
  const { Query } = require('mingo/query') as typeof MingoQueryModule;
  const operators = require('mingo/operators/query') as typeof MingoQueryOperators;
  const { $and, $or, $nor, $not, $eq, $ne, $lt, $lte, $gt, $gte, $in, $nin, $regex, $exists, $elemMatch, $size } = operators;
  const query = { $and, $or, $nor, $not, $eq, $ne, $lt, $lte, $gt, $gte, $in, $nin, $regex, $exists, $elemMatch, $size, $asText };
  return (mingo = { Query, context: Context.init({ query }) });
}

export type Matcher = (document: StoredDocument) => boolean;

const MATCH_ALL: Matcher = () => true;

/** mingo alone, for any filter; the reference semantics. */
export function createMingoMatcher(filter: Filter): Matcher {
  const { Query, context } = loadMingo();
  const query = new Query(filter, { context, scriptEnabled: false, useStrictMode: true });
  return (document) => query.test(document);
}

function compileLogical(operator: string, branches: Filter[]): Matcher {
  const compiled = branches.map(compileFilter);
  if (operator === '$and') return (document) => compiled.every((matches) => matches(document));
  if (operator === '$or') return (document) => compiled.some((matches) => matches(document));
  return (document) => !compiled.some((matches) => matches(document));
}

/**
 * Conditions with plain operands ($eq, $ne, $in, $nin, $exists and range operators on strings and numbers) run
 * as native predicates, several times faster than mingo's generic path, as long as the field's path crosses no
 * array; everything else goes to mingo, clause by clause or document by document.
 * test/storage/matcher.test.ts checks both agree.
 */
function compileField(field: string, condition: unknown): Matcher {
  const predicate = field.startsWith('$') ? undefined : compileValuePredicate(condition);
  if (!predicate) return createMingoMatcher({ [field]: condition });
  let viaMingo: Matcher | undefined;
  const path = field.split('.');
  return (document) => {
    const value = readPlainPath(document, path);
    if (value !== THROUGH_ARRAY) return predicate(value);
    viaMingo ??= createMingoMatcher({ [field]: condition });
    return viaMingo(document);
  };
}

function compileFilter(filter: Filter): Matcher {
  const clauses: Matcher[] = [];
  for (const [key, condition] of Object.entries(filter)) {
    if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(condition)) {
      clauses.push(compileLogical(key, condition as Filter[]));
    } else {
      clauses.push(compileField(key, condition));
    }
  }
  if (clauses.length === 0) return MATCH_ALL;
  if (clauses.length === 1) return clauses[0];
  return (document) => clauses.every((matches) => matches(document));
}

/** A predicate with MongoDB query semantics for a (guarded) Folio filter. */
export function createMatcher(filter: Filter): Matcher {
  assertSafeFilter(filter);
  return compileFilter(filter);
}
