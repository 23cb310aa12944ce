/** Tiny helpers to print SDL text consistently. */

export interface SdlField {
  name: string;
  type: string;
  args?: string[];
  directives?: string[];
}

const suffix = (directives: string[] | undefined): string =>
  directives && directives.length > 0 ? ` ${directives.join(' ')}` : '';

const printField = ({ name, type, args, directives }: SdlField): string =>
  `  ${name}${args && args.length > 0 ? `(${args.join(', ')})` : ''}: ${type}${suffix(directives)}`;

export const printBlock = (keyword: 'type' | 'input', name: string, fields: SdlField[], directives?: string[]): string =>
  `${keyword} ${name}${suffix(directives)} {\n${fields.map(printField).join('\n')}\n}`;

export const DISABLED = '@disabled';
export const authDirective = (scopes: string[]): string =>
  `@auth(scope: [${scopes.map((scope) => JSON.stringify(scope)).join(', ')}])`;
