import { isBuiltInContentTypeUid } from './built-in-targets';
import type { ModelProblem } from './model-error';
import type { Component, ContentType, Models, RelationAttribute, RelationKind } from './types';

/** The kind the other side of a bidirectional relation must have. */
const MIRROR: Record<RelationKind, RelationKind> = {
  oneToOne: 'oneToOne',
  oneToMany: 'manyToOne',
  manyToOne: 'oneToMany',
  manyToMany: 'manyToMany',
};

function targetProblem(models: Models, { target }: RelationAttribute): string | undefined {
  if (models.contentTypes.has(target) || isBuiltInContentTypeUid(target)) return undefined;
  if (models.components.has(target)) return `target ${target} is a component; use a component attribute to embed it`;
  return `target ${target} is not a known content-type`;
}

/** A bidirectional relation is one link seen from both ends: each end must name the other. */
function otherSideProblem(models: Models, owner: ContentType, name: string, attribute: RelationAttribute): string | undefined {
  const [key, backKey] = attribute.inversedBy !== undefined ? (['inversedBy', 'mappedBy'] as const) : (['mappedBy', 'inversedBy'] as const);
  const otherName = attribute[key];
  const target = models.contentTypes.get(attribute.target);
  if (otherName === undefined || target === undefined) return undefined;
  const other = target.attributes[otherName];
  if (!other) return `${key} "${otherName}" names no attribute of ${target.uid}`;
  const expected = `${target.uid}.${otherName} must be a relation with target ${owner.uid} and ${backKey}: "${name}"`;
  if (other.type !== 'relation' || other.target !== owner.uid || other[backKey] !== name) {
    return `${key} "${otherName}" does not point back: ${expected}`;
  }
  // Reported from the owning side only, so a mismatch is one line rather than two.
  if (key === 'inversedBy' && other.relation !== MIRROR[attribute.relation]) {
    return `${attribute.relation} cannot pair with ${target.uid}.${otherName} (${other.relation}); the other side must be ${MIRROR[attribute.relation]}`;
  }
  return undefined;
}

function componentRelationProblem({ inversedBy, mappedBy }: RelationAttribute): string | undefined {
  if (inversedBy === undefined && mappedBy === undefined) return undefined;
  return 'relations in components are one-way: remove inversedBy/mappedBy';
}

function relationsOf(model: ContentType | Component): [string, RelationAttribute][] {
  return Object.entries(model.attributes).filter((entry): entry is [string, RelationAttribute] => entry[1].type === 'relation');
}

export function checkRelations(models: Models): ModelProblem[] {
  const problems: ModelProblem[] = [];
  const report = (file: string, attribute: string, messages: (string | undefined)[]) => {
    for (const message of messages) if (message) problems.push({ file, attribute, message });
  };
  for (const contentType of models.contentTypes.values()) {
    for (const [name, attribute] of relationsOf(contentType)) {
      report(contentType.file, name, [targetProblem(models, attribute), otherSideProblem(models, contentType, name, attribute)]);
    }
  }
  for (const component of models.components.values()) {
    for (const [name, attribute] of relationsOf(component)) {
      report(component.file, name, [targetProblem(models, attribute), componentRelationProblem(attribute)]);
    }
  }
  return problems;
}
