import type { Attribute, ContentType, Models, ScalarAttributeType } from '../models/types';
import type { Filter, StoredValue } from '../storage/types';
import { badUserInput } from '../errors/graphql-errors';
import type { RangeOperator } from './bigint-range';
import { bigintCondition, operatorCondition } from './filter-operators';
import { SCALAR_FILTER_OPERATORS, type FilterOperator } from '../sdl/scalar-types';
import { isRecord } from '../common/is-record';
import { createMatcher } from '../storage/create-matcher';

/**
 * The one filter translator: a `<Type>FiltersInput` value (GraphQL, or REST once its `$` prefixes
 * are dropped) → a storage filter document. Relation filters become documentId sets found with
 * one store query per relation node, so deep filtering costs a bounded number of queries.
 */

const isToManyOwning = (attribute: Attribute & { type: 'relation' }): boolean => attribute.relation === 'oneToMany' || attribute.relation === 'manyToMany';

export interface FilterLookup {
  /** values of `field` on the rows of `target` that match `filter`, in the scope inherited from the parent */
  (target: ContentType, filter: Filter, field: string): Promise<StoredValue[]>;
}

/** Maximum nesting of and/or/not and relation filters; deeper input is refused, never recursed into. */
const MAX_FILTER_DEPTH = 32;

export interface TranslateOptions {
  models: Models;
  lookup: FilterLookup;
  maxStringLength: number;
  /** deepest nesting of and/or/not/relations accepted, MAX_FILTER_DEPTH unless a test needs another */
  maxDepth?: number;
  /**
   * Whether the caller may `find` a relation's target. A relation filter on one it may not is refused as an
   * unknown key (Strapi's rule): filtering would reveal what reading may not, e.g. users' emails.
   */
  canRead?: (target: ContentType) => boolean;
}


const SYSTEM_FIELDS: Record<string, ScalarAttributeType | 'id'> = {
  id: 'integer',
  documentId: 'id',
  createdAt: 'datetime',
  updatedAt: 'datetime',
  publishedAt: 'datetime',
  locale: 'string',
};

const BIGINT_RANGES = new Set<string>(['gt', 'gte', 'lt', 'lte', 'between']);

const MATCH_NOTHING: Filter = { $nor: [{}] };

/** A relation's own operators: whether any document is linked. */
const PRESENCE_KEYS = new Set(['null', 'notNull']);


export const createFilterTranslator = (options: TranslateOptions) => {
  const maxDepth = options.maxDepth ?? MAX_FILTER_DEPTH;
  const depthGuard = (depth: number, path: string) => {
    if (depth > maxDepth) throw badUserInput(`Filters nest deeper than ${maxDepth} levels at ${path}`, { key: path });
  };

  const logical = (
    operator: 'and' | 'or' | 'not',
    value: unknown,
    path: string,
    translate: (input: unknown, path: string) => Promise<Filter>,
  ): Promise<Filter> => {
    if (operator === 'not') return translate(value, `${path}.not`).then((inner) => ({ $nor: [inner] }));
    if (!Array.isArray(value)) throw badUserInput(`Filter ${operator} at ${path} must be an array`, { key: operator, path });
    // null items (the list's type allows them, as Strapi's does) add no condition
    const items = value.flatMap((item, index) => (item === null ? [] : [{ item, index }]));
    return Promise.all(items.map(({ item, index }) => translate(item, `${path}.${operator}.${index}`))).then((parts) => {
      if (parts.length === 0) return operator === 'and' ? {} : MATCH_NOTHING;
      return { [`$${operator}`]: parts };
    });
  };

  /**
   * A field's own `and` / `or` list values, as Strapi types them (`title: { or: ["a", "b"] }`): each item
   * is an implicit `eq`, a null item too (equal to null: the field is null or absent, as `eq: null`).
   */
  const valueList = (operator: 'and' | 'or', field: string, type: ScalarAttributeType | 'id', value: unknown, path: string): Filter => {
    if (!Array.isArray(value)) throw badUserInput(`Filter ${operator} at ${path} must be an array`, { key: operator, path });
    const parts = value.map((item, index) => ({ [field]: operatorCondition('eq', item, type, `${path}.${operator}.${index}`, options.maxStringLength) }));
    if (parts.length === 0) return operator === 'and' ? {} : MATCH_NOTHING;
    return { [`$${operator}`]: parts };
  };

  const scalarFilter = async (field: string, type: ScalarAttributeType | 'id', input: unknown, path: string, depth: number): Promise<Filter> => {
    depthGuard(depth, path);
    if (!isRecord(input)) throw badUserInput(`Filter on ${path} must be an object of operators`, { key: field, path });
    const parts: Filter[] = [];
    for (const [operator, value] of Object.entries(input)) {
      if (value === undefined) continue;
      if (!SCALAR_FILTER_OPERATORS.includes(operator as FilterOperator)) {
        throw badUserInput(`Invalid operator ${operator} at ${path}`, { key: operator, path });
      }
      if (operator === 'and' || operator === 'or') {
        parts.push(valueList(operator, field, type, value, path));
      } else if (operator === 'not') {
        parts.push({ $nor: [await scalarFilter(field, type, value, `${path}.not`, depth + 1)] });
      } else if (type === 'biginteger' && BIGINT_RANGES.has(operator)) {
        parts.push(bigintCondition(field, operator as RangeOperator | 'between', value, `${path}.${operator}`, options.maxStringLength));
      } else {
        parts.push({ [field]: operatorCondition(operator as FilterOperator, value, type, `${path}.${operator}`, options.maxStringLength) });
      }
    }
    return parts.length === 1 ? parts[0] : parts.length === 0 ? {} : { $and: parts };
  };

  /**
   * `null` / `notNull` on the relation itself (`filters[category][$null]=true`): whether the document
   * is linked to any target in scope, as Strapi's left join answers it (a link to a deleted document
   * is no link).
   */
  const presenceFilter = async (attribute: Attribute & { type: 'relation' }, target: ContentType, field: string, linked: boolean): Promise<Filter> => {
    const condition: Filter = attribute.mappedBy
      ? { documentId: { $in: [...new Set((await options.lookup(target, {}, attribute.mappedBy)).flat().filter((owner) => owner !== null))] } }
      : { [field]: { $in: await options.lookup(target, {}, 'documentId') } };
    return linked ? condition : { $nor: [condition] };
  };

  const relationFilter = async (attribute: Attribute & { type: 'relation' }, field: string, input: unknown, path: string, depth: number): Promise<Filter> => {
    const target = options.models.contentTypes.get(attribute.target);
    if (!target || options.canRead?.(target) === false) throw badUserInput(`Invalid key ${field}`, { key: field, path });
    if (isRecord(input) && Object.keys(input).some((key) => PRESENCE_KEYS.has(key))) {
      const { null: isNull, notNull, ...rest } = input;
      const parts: Filter[] = [];
      for (const [key, value, linked] of [['null', isNull, false], ['notNull', notNull, true]] as const) {
        if (value === undefined || value === null) continue;
        if (typeof value !== 'boolean') throw badUserInput(`Invalid value for ${path}.${key}: expected true or false`, { key, path });
        parts.push(await presenceFilter(attribute, target, field, value === linked));
      }
      if (Object.keys(rest).length > 0) parts.push(await relationFilter(attribute, field, rest, path, depth));
      return parts.length === 1 ? parts[0] : parts.length === 0 ? {} : { $and: parts };
    }
    const inner = await translateOwned(target.attributes, target, input, path, depth + 1);
    if (attribute.mappedBy) {
      const owners = (await options.lookup(target, inner, attribute.mappedBy)).flatMap((value) => (Array.isArray(value) ? value : [value]));
      return { documentId: { $in: [...new Set(owners.filter((value) => value !== null))] } };
    }
    const ids = await options.lookup(target, inner, 'documentId');
    const linked: Filter = { [field]: { $in: ids } };
    // A condition an absent document meets (`name: { null: true }`) is met by documents with none linked, as in SQL's
    // left join Strapi runs: `{ field: null }` matches a null or missing reference, `$size: 0` an empty list.
    if (!createMatcher(inner)({})) return linked;
    const none: Filter[] = isToManyOwning(attribute) ? [{ [field]: null }, { [field]: { $size: 0 } }] : [{ [field]: null }];
    return { $or: [linked, ...none] };
  };

  const translateOwned = async (
    attributes: Record<string, Attribute>,
    contentType: ContentType | undefined,
    input: unknown,
    path: string,
    depth: number,
    prefix = '',
  ): Promise<Filter> => {
    depthGuard(depth, path);
    if (!isRecord(input)) throw badUserInput(`Filters at ${path || 'root'} must be an object`, { key: path });
    const parts: Filter[] = [];
    for (const [key, value] of Object.entries(input)) {
      if (value === undefined) continue;
      const keyPath = path ? `${path}.${key}` : key;
      if (key === 'and' || key === 'or' || key === 'not') {
        parts.push(await logical(key, value, path, (inner, innerPath) => translateOwned(attributes, contentType, inner, innerPath, depth + 1, prefix)));
        continue;
      }
      const attribute = Object.prototype.hasOwnProperty.call(attributes, key) ? attributes[key] : undefined;
      if (contentType && !attribute && Object.prototype.hasOwnProperty.call(SYSTEM_FIELDS, key) && (key !== 'locale' || contentType.localized)) {
        parts.push(await scalarFilter(`${prefix}${key}`, SYSTEM_FIELDS[key], value, keyPath, depth + 1));
        continue;
      }
      if (PRESENCE_KEYS.has(key)) throw badUserInput(`Invalid key ${key}: null and notNull apply to a relation (filters[category][$null]=true)`, { key, path: path || null });
      if (contentType && key === 'localizations' && contentType.localized) {
        const inner = await translateOwned(contentType.attributes, contentType, value, keyPath, depth + 1);
        parts.push({ documentId: { $in: await options.lookup(contentType, inner, 'documentId') } });
        continue;
      }
      if (!attribute || attribute.private || attribute.type === 'password' || attribute.type === 'media' || attribute.type === 'dynamiczone' || attribute.type === 'morph') {
        throw badUserInput(`Invalid key ${key}`, { key, path: path || null });
      }
      if (attribute.type === 'relation') {
        // a relation inside a component is stored in it, as the document stores its own (components have no inverse sides)
        parts.push(await relationFilter(attribute, `${prefix}${key}`, value, keyPath, depth));
      } else if (attribute.type === 'component') {
        const component = options.models.components.get(attribute.component);
        if (!component) throw badUserInput(`Invalid key ${key}`, { key, path });
        parts.push(
          attribute.repeatable
            ? { [`${prefix}${key}`]: { $elemMatch: await translateOwned(component.attributes, undefined, value, keyPath, depth + 1) } }
            : await translateOwned(component.attributes, undefined, value, keyPath, depth + 1, `${prefix}${key}.`),
        );
      } else {
        parts.push(await scalarFilter(`${prefix}${key}`, attribute.type, value, keyPath, depth + 1));
      }
    }
    return parts.length === 1 ? parts[0] : parts.length === 0 ? {} : { $and: parts };
  };

  return {
    translate: (contentType: ContentType, input: unknown): Promise<Filter> =>
      input === undefined || input === null ? Promise.resolve({}) : translateOwned(contentType.attributes, contentType, input, '', 0),
    translateComponent: (attributes: Record<string, Attribute>, input: unknown): Promise<Filter> =>
      input === undefined || input === null ? Promise.resolve({}) : translateOwned(attributes, undefined, input, '', 0),
  };
};

export type FilterTranslator = ReturnType<typeof createFilterTranslator>;
