/** One wrong setting: `source` is the file (or `env NAME`, or a command-line flag), `path` the key inside it. */
export interface ConfigProblem {
  source: string;
  path?: string;
  message: string;
}

function formatConfigProblem({ source, path, message }: ConfigProblem): string {
  return path ? `${source}: ${path} ${message}` : `${source}: ${message}`;
}

/** Thrown once at start-up with every problem found, so a config folder is fixed in one round. */
export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];

  constructor(problems: readonly ConfigProblem[]) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super([`Invalid configuration (${count}):`, ...problems.map(formatConfigProblem)].join('\n'));
    this.name = 'ConfigError';
    this.problems = problems;
  }
}
