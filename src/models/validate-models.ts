import { checkApiIds } from './check-api-ids';
import { checkAttributes } from './check-attributes';
import { checkComponents } from './check-components';
import { checkRelations } from './check-relations';
import { ModelError, type ModelProblem } from './model-error';
import type { Models } from './types';

export { ModelError, type ModelProblem } from './model-error';

/** Every rule a set of models must satisfy beyond the shape of each file, in a stable order. */
export function findModelProblems(models: Models): ModelProblem[] {
  return [...checkApiIds(models), ...checkAttributes(models), ...checkRelations(models), ...checkComponents(models)];
}

/** Throws one ModelError listing every problem; returns quietly when the models are sound. */
export function validateModels(models: Models): void {
  const problems = findModelProblems(models);
  if (problems.length > 0) throw new ModelError(problems);
}
