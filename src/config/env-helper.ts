/** The `env` that Strapi hands to `({ env }) => config` files, with the same parsing rules. */
export interface EnvHelper {
  <T = string>(name: string, defaultValue?: T): string | T | undefined;
  int(name: string, defaultValue?: number): number | undefined;
  float(name: string, defaultValue?: number): number | undefined;
  bool(name: string, defaultValue?: boolean): boolean | undefined;
  json(name: string, defaultValue?: unknown): unknown;
  array(name: string, defaultValue?: string[]): string[] | undefined;
}

export function createEnvHelper(env: NodeJS.ProcessEnv): EnvHelper {
  const has = (name: string) => Object.prototype.hasOwnProperty.call(env, name) && env[name] !== undefined;
  const read = <T>(name: string, defaultValue: T | undefined, parse: (raw: string) => T) => (has(name) ? parse(env[name]!) : defaultValue);
  return Object.assign(<T = string>(name: string, defaultValue?: T) => read<string | T>(name, defaultValue, (raw) => raw), {
    int: (name: string, defaultValue?: number) => read(name, defaultValue, (raw) => Number.parseInt(raw, 10)),
    float: (name: string, defaultValue?: number) => read(name, defaultValue, (raw) => Number.parseFloat(raw)),
    bool: (name: string, defaultValue?: boolean) => read(name, defaultValue, (raw) => raw === 'true'),
    json: (name: string, defaultValue?: unknown) =>
      read(name, defaultValue, (raw) => {
        try {
          return JSON.parse(raw) as unknown;
        } catch (error) {
          throw new Error(`environment variable ${name} is not valid JSON: ${(error as Error).message}`);
        }
      }),
    array: (name: string, defaultValue?: string[]) =>
      read(name, defaultValue, (raw) => {
        const list = raw.startsWith('[') && raw.endsWith(']') ? raw.slice(1, -1) : raw;
        return list.split(',').map((item) => item.trim().replace(/^"+|"+$/g, ''));
      }),
  });
}
