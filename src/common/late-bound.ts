/**
 * An object that stands for another given later: what code loaded before the other exists may keep
 * (Strapi's global `strapi`, handed to project files as they load, before Folio is assembled). A
 * member asked for before then throws saying so.
 */
export interface LateBound {
  value: object;
  bind(target: object): void;
}

export const lateBound = (label: string, early: string): LateBound => {
  let target: object | undefined;
  const value = new Proxy(
    {},
    {
      get(_, key) {
        if (target) return Reflect.get(target, key);
        // promise checks and inspection probe these
        if (typeof key === 'symbol' || key === 'then') return undefined;
        throw new Error(`${label}.${key}: ${early}`);
      },
    },
  );
  return { value, bind: (given) => void (target = given) };
};
