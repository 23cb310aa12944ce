/**
 * Whether `value` is an object whose prototype is an `Object.prototype`, of whichever realm: documents read on
 * a reader thread arrive as objects of the realm that received the thread's messages, which under jest (tests
 * run in a vm context) is not the realm of the code that checks them.
 */
export function hasObjectPrototype(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto !== null && Object.getPrototypeOf(proto) === null;
}
