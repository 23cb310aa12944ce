/**
 * An object whose unknown members throw naming them, for the stand-ins Folio gives project code
 * (`ctx`, `strapi`, `require('@strapi/strapi')`): code relying on more than they hold fails loudly,
 * never on an `undefined` far from its cause. `label` is how the code reached the object.
 */

/** Members that interop and promise checks probe without meaning them: "none" is the right answer there. */
const PROBED = new Set(['then', 'toJSON', 'inspect', '__esModule', 'default']);

/** `absent`: members the real object lacks too, which answer undefined as there (`typeof this.findOne` on a single type's controller) */
export const strictMembers = <T extends object>(label: string, target: T, supported: string, absent: ReadonlySet<string> = new Set()): T =>
  new Proxy(target, {
    get(object, key, receiver) {
      if (typeof key === 'symbol' || key in object) return Reflect.get(object, key, receiver);
      if (PROBED.has(key) || absent.has(key)) return undefined;
      throw new Error(`${label}.${key} is not supported by Folio (${supported})`);
    },
  });
