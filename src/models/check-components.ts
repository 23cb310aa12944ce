import type { ModelProblem } from './model-error';
import type { Attribute, Component, Models } from './types';

function embedded(attribute: Attribute): string[] {
  if (attribute.type === 'component') return [attribute.component];
  if (attribute.type === 'dynamiczone') return attribute.components;
  return [];
}

function referenceProblems(models: Models, attribute: Attribute): string[] {
  const uids = embedded(attribute);
  const problems = uids
    .filter((uid) => !models.components.has(uid))
    .map((uid) =>
      models.contentTypes.has(uid) ? `${uid} is a content-type, not a component; use a relation to link it` : `component ${uid} is not a known component`,
    );
  const duplicates = new Set(uids.filter((uid, index) => uids.indexOf(uid) !== index));
  return [...problems, ...[...duplicates].map((uid) => `component ${uid} is listed twice`)];
}

/** A component that contains itself, directly or through others, would nest forever in inputs and documents. */
function cycleProblems(models: Models): ModelProblem[] {
  const problems: ModelProblem[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (component: Component): void => {
    path.push(component.uid);
    for (const [name, attribute] of Object.entries(component.attributes)) {
      for (const uid of embedded(attribute)) {
        const start = path.indexOf(uid);
        if (start !== -1) {
          const cycle = [...path.slice(start), uid].join(' → ');
          problems.push({ file: component.file, attribute: name, message: `component cycle ${cycle}: a component cannot contain itself` });
          continue;
        }
        const next = models.components.get(uid);
        if (next && !done.has(uid)) visit(next);
      }
    }
    path.pop();
    done.add(component.uid);
  };
  for (const component of models.components.values()) if (!done.has(component.uid)) visit(component);
  return problems;
}

export function checkComponents(models: Models): ModelProblem[] {
  const problems: ModelProblem[] = [];
  for (const model of [...models.contentTypes.values(), ...models.components.values()]) {
    for (const [name, attribute] of Object.entries(model.attributes)) {
      for (const message of referenceProblems(models, attribute)) problems.push({ file: model.file, attribute: name, message });
    }
  }
  return [...problems, ...cycleProblems(models)];
}
