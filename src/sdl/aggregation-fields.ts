import type { Attribute, ContentType, Models, ScalarAttributeType } from '../models/types';
import type { ShadowCrud } from './shadow-crud';

/**
 * What a content-type's connection may aggregate and group by (issue 36): the single source the SDL, the
 * resolvers and REST read, so that a field is offered, computed and refused alike on both surfaces.
 *
 * - sum and avg: number attributes, and the number fields (big integers aside) of single components, named `<component>_<field>`
 *   (a component in a component: `<component>_<inner>_<field>`);
 * - min and max: those, and date, time, datetime and string attributes, the timestamps too;
 * - groupBy: short scalars (string, email, uid, enumeration, numbers, boolean, dates) and to-one relations
 *   the type owns (the documentId stored on it), and `locale` on a localized type.
 *
 * Private attributes and fields whose output Shadow CRUD turns off are none of them; nothing inside repeatable
 * components or dynamic zones is (a document holds several values there).
 */

export type AggregateKind = 'integer' | 'biginteger' | 'float' | 'decimal' | 'date' | 'time' | 'datetime' | 'string';

export interface AggregatableField {
  /** the GraphQL field and REST name */
  name: string;
  /** the stored (dotted) path */
  path: string;
  kind: AggregateKind;
  /** whether sum and avg take it (min and max take every field) */
  numeric: boolean;
}

export interface GroupableField {
  name: string;
  path: string;
  /** how its values are stored: a relation's is the related documentId */
  kind: 'scalar' | 'boolean' | 'relation';
  /** a relation's target: only those who may `find` it may group by it */
  target?: ContentType;
}

export interface AggregationFields {
  aggregatable: AggregatableField[];
  groupable: GroupableField[];
}

const KIND_OF: Partial<Record<ScalarAttributeType, AggregateKind>> = {
  integer: 'integer',
  biginteger: 'biginteger',
  float: 'float',
  decimal: 'decimal',
  date: 'date',
  time: 'time',
  datetime: 'datetime',
  timestamp: 'datetime',
  string: 'string',
  email: 'string',
  uid: 'string',
};
const NUMERIC: ReadonlySet<AggregateKind> = new Set(['integer', 'biginteger', 'float', 'decimal']);
const GROUPABLE: ReadonlySet<ScalarAttributeType> = new Set([
  'string',
  'email',
  'uid',
  'enumeration',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'boolean',
  'date',
  'time',
  'datetime',
  'timestamp',
]);
// components nested deeper are rare; their fields are left out rather than named at any length
const MAX_COMPONENT_DEPTH = 3;

const isPrivate = (attribute: Attribute): boolean => attribute.private === true || attribute.type === 'password';
const isToOne = (relation: string): boolean => relation === 'oneToOne' || relation === 'manyToOne';

/** Why a field cannot be grouped by, for the refusal that names it; undefined when it can or is unknown. */
export const whyNotGroupable = (contentType: ContentType, name: string): string | undefined => {
  if (!Object.hasOwn(contentType.attributes, name)) return undefined;
  const attribute = contentType.attributes[name];
  if (isPrivate(attribute)) return `${name} is private`;
  switch (attribute.type) {
    case 'relation':
      if (!isToOne(attribute.relation)) return `${name} is a to-many relation: a document would be in several groups`;
      return attribute.mappedBy ? `${name} is the inverse side of a relation: its value is stored on the other type` : undefined;
    case 'dynamiczone':
      return `${name} is a dynamic zone: its entries have no single value to group by`;
    case 'component':
      return `${name} is a component: group by a scalar attribute`;
    case 'media':
    case 'morph':
      return `${name} is a ${attribute.type === 'media' ? 'media field' : 'polymorphic relation'}: group by a scalar attribute or a to-one relation`;
    case 'json':
    case 'blocks':
      return `${name} holds JSON: its paths cannot be grouped by`;
    default:
      return GROUPABLE.has(attribute.type) ? undefined : `${name} is long text: group by a short scalar attribute`;
  }
};

/** How many attributes `groups(by:)` takes: the store groups by at most 8 fields (storage/aggregate-query.ts). */
export const MAX_GROUP_ATTRIBUTES = 8;

// names GraphQL does not take as enum values
const NOT_ENUM_VALUES: ReadonlySet<string> = new Set(['true', 'false', 'null']);

/** The attributes `groups(by:)` offers (an enum's values): the groupable ones a GraphQL enum can name. */
export const combinableOf = <T extends { name: string }>(groupable: T[]): T[] => groupable.filter((field) => !NOT_ENUM_VALUES.has(field.name));

export const aggregationFieldsOf = (models: Models, shadowCrud: ShadowCrud, contentType: ContentType): AggregationFields => {
  const aggregatable: AggregatableField[] = [];
  const taken = new Set<string>();
  const add = (field: AggregatableField): void => {
    // a component's `seo_score` never hides an attribute of that name
    if (taken.has(field.name)) return;
    taken.add(field.name);
    aggregatable.push(field);
  };
  const visit = (uid: string, attributes: Record<string, Attribute>, prefix: { name: string; path: string } | undefined, depth: number): void => {
    for (const [name, attribute] of Object.entries(attributes)) {
      if (isPrivate(attribute) || !shadowCrud.field(uid, name).isOutputEnabled) continue;
      const fieldName = prefix ? `${prefix.name}_${name}` : name;
      const path = prefix ? `${prefix.path}.${name}` : name;
      if (attribute.type === 'component') {
        const component = models.components.get(attribute.component);
        if (!attribute.repeatable && component && depth < MAX_COMPONENT_DEPTH) visit(component.uid, component.attributes, { name: fieldName, path }, depth + 1);
        continue;
      }
      const kind = KIND_OF[attribute.type as ScalarAttributeType];
      // a component's fields: numbers alone (their sums are what is asked for), but not big integers, which are
      // compared through the sort key written beside a type's own attributes only
      if (!kind || (prefix && (!NUMERIC.has(kind) || kind === 'biginteger'))) continue;
      add({ name: fieldName, path, kind, numeric: NUMERIC.has(kind) });
    }
  };
  visit(contentType.uid, contentType.attributes, undefined, 0);
  for (const name of ['createdAt', 'updatedAt', 'publishedAt']) add({ name, path: name, kind: 'datetime', numeric: false });

  const groupable: GroupableField[] = [];
  for (const [name, attribute] of Object.entries(contentType.attributes)) {
    if (!shadowCrud.field(contentType.uid, name).isOutputEnabled || whyNotGroupable(contentType, name) !== undefined) continue;
    if (attribute.type === 'relation') {
      const target = models.contentTypes.get(attribute.target);
      if (target && shadowCrud.isEnabled(target.uid)) groupable.push({ name, path: name, kind: 'relation', target });
    } else if (attribute.type !== 'component' && attribute.type !== 'dynamiczone' && attribute.type !== 'media' && attribute.type !== 'morph') {
      groupable.push({ name, path: name, kind: attribute.type === 'boolean' ? 'boolean' : 'scalar' });
    }
  }
  if (contentType.localized) groupable.push({ name: 'locale', path: 'locale', kind: 'scalar' });
  return { aggregatable, groupable };
};
