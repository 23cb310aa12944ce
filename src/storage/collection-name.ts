// what both engines can hold: MongoDB refuses `$` and empty names and reserves `system.`
const COLLECTION_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,119}$/;

export function assertCollectionName(name: string): void {
  if (!COLLECTION_NAME.test(name) || name.startsWith('system.')) {
    throw new Error(`invalid collection name "${name}": use letters, digits, "_", "-" and ".", starting with a letter or "_"`);
  }
}
