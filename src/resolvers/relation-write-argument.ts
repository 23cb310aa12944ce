import type { Attribute, Models } from '../models/types';
import { badUserInput } from '../errors/graphql-errors';
import { isRecord } from '../common/is-record';

/**
 * The `relations` argument of create and update mutations: relation writes in the forms Strapi's
 * `ID` input fields cannot hold (`connect`/`disconnect`/`set`, positions, numeric ids), each placed
 * into `data` at its path before the write, where the relation's own field would have held it.
 */

export interface RelationWrite {
  path: string[];
  value: unknown;
}

type Data = Record<string, unknown>;

const refuse = (index: number, path: string[], why: string) =>
  badUserInput(`relations[${index}].path ${JSON.stringify(path)} ${why}`, { key: 'relations', path: [String(index), 'path'] });

/**
 * The component object a path step enters (`data[name]`, or `data[name][index]` for a repeatable one),
 * copied into `container` so the caller's arguments stay as they were.
 */
const enter = (container: Data, attribute: Attribute & { type: 'component' }, name: string, rest: string[]): { next: Data; consumed: number } | undefined => {
  const value = container[name];
  if (!attribute.repeatable) {
    if (!isRecord(value)) return undefined;
    const next = { ...value };
    container[name] = next;
    return { next, consumed: 1 };
  }
  const index = rest[0];
  if (!Array.isArray(value) || index === undefined || !/^\d+$/.test(index)) return undefined;
  const item: unknown = value[Number(index)];
  if (!isRecord(item)) return undefined;
  const next = { ...item };
  container[name] = value.map((entry, position) => (position === Number(index) ? next : entry));
  return { next, consumed: 2 };
};

export const withRelationWrites = (models: Models, attributes: Record<string, Attribute>, data: Data, writes: readonly RelationWrite[] | null | undefined): Data => {
  if (!writes || writes.length === 0) return data;
  const result = { ...data };
  writes.forEach(({ path, value }, index) => {
    let container = result;
    let owner = attributes;
    for (let step = 0; step < path.length; ) {
      const name = path[step];
      const attribute = Object.hasOwn(owner, name) ? owner[name] : undefined;
      if (step === path.length - 1) {
        if (attribute?.type !== 'relation') throw refuse(index, path, 'names no relation');
        if (container[name] !== undefined) throw refuse(index, path, 'names a relation `data` gives too');
        container[name] = value;
        return;
      }
      const component = attribute?.type === 'component' ? models.components.get(attribute.component) : undefined;
      const entered = attribute?.type === 'component' && component ? enter(container, attribute, name, path.slice(step + 1)) : undefined;
      if (!component || !entered) throw refuse(index, path, 'names no component given in `data`');
      container = entered.next;
      owner = component.attributes;
      step += entered.consumed;
    }
    throw refuse(index, path, 'names no relation');
  });
  return result;
};
