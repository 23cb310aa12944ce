import type { ModelProblem } from './model-error';
import type { Models } from './types';

/** Strapi's rule for API IDs: they become URL segments and, camel-cased, GraphQL field and type names. */
const API_ID_PATTERN = /^[a-z][a-z0-9-]*$/;

/**
 * Every singular and plural API ID names a REST route and GraphQL root fields, so each must belong to exactly one
 * content-type; collection names are storage collections, shared by content-types and components.
 */
export function checkApiIds(models: Models): ModelProblem[] {
  const problems: ModelProblem[] = [];
  const apiIdOwners = new Map<string, string>();
  for (const { file, singularName, pluralName } of models.contentTypes.values()) {
    for (const [field, value] of [['info.singularName', singularName], ['info.pluralName', pluralName]] as const) {
      if (value === '') continue;
      if (!API_ID_PATTERN.test(value)) {
        problems.push({ file, message: `${field} "${value}" must match ${API_ID_PATTERN}` });
      }
      const owner = apiIdOwners.get(value);
      if (owner === file) {
        problems.push({ file, message: 'info.singularName and info.pluralName must differ' });
      } else if (owner !== undefined) {
        problems.push({ file, message: `${field} "${value}" is already an API ID of ${owner}` });
      } else {
        apiIdOwners.set(value, file);
      }
    }
  }
  const collectionOwners = new Map<string, string>();
  for (const { file, collectionName } of [...models.contentTypes.values(), ...models.components.values()]) {
    if (collectionName === '') continue;
    const owner = collectionOwners.get(collectionName);
    if (owner !== undefined) {
      problems.push({ file, message: `collectionName "${collectionName}" is already used by ${owner}` });
    } else {
      collectionOwners.set(collectionName, file);
    }
  }
  return problems;
}
