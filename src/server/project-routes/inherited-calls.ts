/**
 * What a controller action calls of its base, read from its source at start: `super.find(` always,
 * `this.find(` unless the controller has its own `find`, whose source is read in turn (as are the
 * controller's own actions it calls through `this`). Comments are left out. A call written another
 * way (a computed name, `this` handed to a helper) is not seen here: what it reaches is checked when
 * it runs.
 */

const CALL = /\b(super|this)\s*\.\s*([A-Za-z_$][\w$]*)\s*\(/g;
// a `//` inside a string cuts the rest of its line off too: a call missed there is still checked when it runs
const COMMENTS = /\/\*[\s\S]*?\*\/|\/\/[^\n]*/g;

/** A function's source without its comments, so a call commented out is not read as one. */
export const codeOf = (fn: unknown): string => (typeof fn === 'function' ? Function.prototype.toString.call(fn).replace(COMMENTS, '') : '');

/**
 * `actions`: the controller's own actions (its object, whose prototype is the base); `start`: the routed one.
 * `called`: the base's members it calls; `sources`: the code of the action and of the own actions it reaches.
 */
export const inheritedCalls = (actions: Record<string, unknown>, start: string): { called: Set<string>; sources: string[] } => {
  const called = new Set<string>();
  const sources: string[] = [];
  const read = new Set<string>();
  const pending = [start];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const action = Object.hasOwn(actions, name) ? actions[name] : undefined;
    if (read.has(name) || typeof action !== 'function') continue;
    read.add(name);
    const source = codeOf(action);
    sources.push(source);
    for (const [, receiver, member] of source.matchAll(CALL)) {
      if (receiver === 'this' && Object.hasOwn(actions, member)) pending.push(member);
      else called.add(member);
    }
  }
  return { called, sources };
};
