import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/**
 * The floors of `src/`, bottom first. A module may import from its own folder or from a lower floor,
 * never from its own floor's neighbours or from above: so a lower layer can be read, tested and
 * replaced without what is built on it. A new folder must be given a floor here.
 */
const FLOORS: string[][] = [
  ['common', 'errors'],
  ['models'],
  ['config'],
  ['email'],
  ['storage'],
  ['metrics'],
  ['auth'],
  ['directives'],
  ['sdl'],
  ['documents', 'extensions', 'project', 'transfer'],
  ['events'],
  ['context.ts'],
  ['query'],
  ['media'],
  ['resolvers'],
  ['users'],
  ['schema'],
  ['graphql'],
  ['rest-compiler'],
  ['openapi'],
  ['server'],
  ['app'],
  ['cli'],
];

const SRC = join(__dirname, '..', '..', 'src');
const floorOf = new Map(FLOORS.flatMap((names, floor) => names.map((name) => [name, floor] as const)));

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : name.endsWith('.ts') ? [path] : [];
  });

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s+'(\.[^']+)'|\bimport\(\s*'(\.[^']+)'\s*\)|\brequire\(\s*'(\.[^']+)'\s*\)/g;

/** `src/`-relative path of every module a file imports, without extension */
const importsOf = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((match) => {
    const target = normalize(join(dirname(file), match[1] ?? match[2] ?? match[3]));
    const path = relative(SRC, target);
    const isFolder = (() => {
      try {
        return statSync(target).isDirectory();
      } catch {
        return false;
      }
    })();
    return isFolder ? join(path, 'index') : path;
  });

/** the top folder of a `src/`-relative module path, or the file itself when it sits in `src/` */
const unitOf = (path: string): string => (path.includes('/') ? path.split('/')[0] : `${path}.ts`);

const graph = new Map(sourceFiles(SRC).map((file) => [relative(SRC, file).replace(/\.ts$/, ''), importsOf(file)]));

describe('src/ import layers', () => {
  it('gives every top-level folder and file of src/ a floor', () => {
    const units = [...new Set([...graph.keys()].map(unitOf))];
    expect(units.filter((unit) => !floorOf.has(unit))).toEqual([]);
  });

  it('has no import from a neighbour on the same floor or from a floor above', () => {
    const upward: string[] = [];
    for (const [from, targets] of graph) {
      for (const target of targets) {
        if (target.startsWith('..')) continue; // outside src/ (package.json)
        const [a, b] = [unitOf(from), unitOf(target)];
        if (a !== b && floorOf.get(b)! >= floorOf.get(a)!) upward.push(`${from} -> ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('has no circle of imports between modules', () => {
    const state = new Map<string, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (node: string, trail: string[]): void => {
      if (state.get(node) === 'done') return;
      if (state.get(node) === 'open') {
        circles.push([...trail.slice(trail.indexOf(node)), node].join(' -> '));
        return;
      }
      state.set(node, 'open');
      for (const next of graph.get(node) ?? []) visit(next, [...trail, node]);
      state.set(node, 'done');
    };
    for (const node of graph.keys()) visit(node, []);
    expect(circles).toEqual([]);
  });
});
