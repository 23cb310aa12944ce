/** One thing wrong with the models, located precisely enough to fix without searching. */
export interface ModelProblem {
  file: string;
  attribute?: string;
  message: string;
}

function formatModelProblem({ file, attribute, message }: ModelProblem): string {
  return attribute === undefined ? `${file}: ${message}` : `${file}: attribute "${attribute}": ${message}`;
}

/** Thrown once with every problem found, so a broken schema folder is fixed in one round, not one error per start. */
export class ModelError extends Error {
  readonly problems: readonly ModelProblem[];

  constructor(problems: readonly ModelProblem[]) {
    // Grouped by file (stable sort keeps each file's own order) so a reader fixes one file at a time.
    problems = [...problems].sort((a, b) => a.file.localeCompare(b.file));
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super([`Invalid models (${count}):`, ...problems.map(formatModelProblem)].join('\n'));
    this.name = 'ModelError';
    this.problems = problems;
  }
}
