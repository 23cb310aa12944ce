import { ModelError } from './model-error';
import { parseModelSources } from './parse-model-sources';
import { readModelSources } from './read-model-sources';
import type { ModelProblem } from './model-error';
import type { Models } from './types';
import type { CustomFieldOptions } from './custom-fields';
import { findModelProblems } from './validate-models';

/**
 * Loads content-types and components from a folder in Strapi's layout (`api/`, `components/`) and validates them.
 * Throws one ModelError naming every problem, file and attribute.
 */
export function loadModels(schemaDir: string, customFields: CustomFieldOptions = {}): Models {
  const problems: ModelProblem[] = [];
  const models = parseModelSources(readModelSources(schemaDir), problems, customFields);
  problems.push(...findModelProblems(models));
  if (problems.length > 0) throw new ModelError(problems);
  return models;
}
