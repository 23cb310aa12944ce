/** One thing in a project's code Folio cannot serve, with the file it is in. */
export interface ProjectCodeProblem {
  file: string;
  message: string;
}

/** Thrown once with every problem found in the project's routes, policies, middlewares, controllers and services. */
export class ProjectCodeError extends Error {
  readonly problems: readonly ProjectCodeProblem[];

  constructor(problems: readonly ProjectCodeProblem[]) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super([`Project code Folio cannot serve (${count}):`, ...problems.map(({ file, message }) => `${file}: ${message}`)].join('\n'));
    this.name = 'ProjectCodeError';
    this.problems = problems;
  }
}
