import { readFileSync } from 'node:fs';
import { compileFunction } from 'node:vm';

/** `file:line` of a JavaScript module's syntax error: compiled as Node compiles a CommonJS module, whose stack then starts with it. */
export const syntaxErrorLine = (path: string): string | undefined => {
  try {
    compileFunction(readFileSync(path, 'utf8'), ['exports', 'require', 'module', '__filename', '__dirname'], { filename: path });
  } catch (error) {
    const first = (error as Error).stack?.split('\n')[0];
    if (first?.startsWith(`${path}:`)) return first;
  }
  return undefined;
};
