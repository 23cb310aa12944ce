import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The SDL of Folio's schema directives, read once from the top-level `directives/` folder, where
 * people who write SDL extensions by hand read which directives exist and what they mean: the
 * schema is built from those files as written (descriptions included, so `folio sdl`, GraphiQL and
 * introspection show them), and only the transformers live in `src/directives/`.
 */

const DIRECTIVE_FILES = ['auth.graphql', 'policy.graphql', 'disabled.graphql'];

/** The folder of package.json above `from`: the repository, or the installed package (dist/src/… and src/… alike). */
const packageRoot = (from: string): string => {
  for (let directory = from; ; directory = dirname(directory)) {
    if (existsSync(join(directory, 'package.json'))) return directory;
    if (dirname(directory) === directory) throw new Error(`no package.json above ${from}: Folio's directives/ folder cannot be found`);
  }
};

export const readDirectiveSdl = (): string => {
  const folder = join(packageRoot(__dirname), 'directives');
  return DIRECTIVE_FILES.map((file) => readFileSync(join(folder, file), 'utf8').trim()).join('\n\n');
};
