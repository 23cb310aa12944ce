import { badUserInput } from '../errors/graphql-errors';
import { selectableFields, type OwnerView } from './owner-views';

/**
 * `fields=title,views` or `fields[0]=title` → the leaf fields to show, in the view's order.
 * Undefined means all of them. The identity is always shown; relations and other populatable
 * fields are refused here (they are asked for with `populate`).
 */
export const parseFields = (view: OwnerView, input: unknown, path: string | null = null): string[] | undefined => {
  if (input === undefined) return undefined;
  const entries = (Array.isArray(input) ? input : [input]).flatMap((entry) => {
    if (typeof entry !== 'string') throw badUserInput('Invalid fields: expected field names', { key: 'fields', path, source: 'query', param: 'fields' });
    return entry.split(',').map((part) => part.trim()).filter(Boolean);
  });
  if (entries.includes('*')) return undefined;
  const allowed = selectableFields(view);
  const unknown = entries.find((name) => !allowed.has(name));
  if (unknown !== undefined) throw badUserInput(`Invalid key ${unknown}`, { key: unknown, path, source: 'query', param: 'fields' });
  const wanted = new Set(entries);
  return view.leafFields.filter((name, index) => index === 0 || wanted.has(name));
};
