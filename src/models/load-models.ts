import { ModelError } from './model-error';
import { parseModelSources } from './parse-model-sources';
import { readModelSources } from './read-model-sources';
import type { ModelProblem } from './model-error';
import type { Models } from './types';
import type { CustomFieldOptions } from './custom-fields';
import { withServedRelationTargets, type RelationTargetOptions } from './relation-targets';
import { findModelProblems } from './validate-models';

/** How a project's custom fields and relations to what is not its content are served, and where to say what is not. */
export type LoadModelsOptions = CustomFieldOptions & RelationTargetOptions;

/**
 * Loads content-types and components from a folder in Strapi's layout (`api/`, `components/`) and validates them.
 * Throws one ModelError naming every problem, file and attribute.
 */
export function loadModels(schemaDir: string, options: LoadModelsOptions = {}): Models {
  const problems: ModelProblem[] = [];
  const models = withServedRelationTargets(parseModelSources(readModelSources(schemaDir), problems, options), options);
  problems.push(...findModelProblems(models));
  if (problems.length > 0) throw new ModelError(problems);
  return models;
}
