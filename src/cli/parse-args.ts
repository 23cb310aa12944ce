/** `folio <command> [--flag value]…` → command, flags and positionals; unknown flags are errors. */

export interface ParsedArgs {
  command: string | undefined;
  flags: Record<string, string>;
  positionals: string[];
}

/** `known` flags take a value; `switches` take none and read as "true". */
export const parseArgs = (argv: string[], known: ReadonlySet<string>, switches: ReadonlySet<string> = new Set()): ParsedArgs => {
  const [command, ...rest] = argv;
  const flags: Record<string, string> = {};
  const positionals: string[] = [];
  for (let index = 0; index < rest.length; index += 1) {
    const argument = rest[index];
    if (!argument.startsWith('--')) {
      positionals.push(argument);
      continue;
    }
    const [name, inline] = argument.slice(2).split(/=(.*)/s, 2);
    if (switches.has(name) && inline === undefined) {
      flags[name] = 'true';
      continue;
    }
    if (!known.has(name)) throw new Error(`Unknown option --${name}`);
    const value = inline ?? rest[index + 1];
    if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new Error(`Option --${name} needs a value`);
    if (inline === undefined) index += 1;
    flags[name] = value;
  }
  return { command, flags, positionals };
};

export const portOf = (value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be an integer from 0 to 65535, got "${value}"`);
  return port;
};
