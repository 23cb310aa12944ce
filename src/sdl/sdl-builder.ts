/** Tiny helpers to print SDL text consistently. */

export interface SdlField {
  name: string;
  type: string;
  args?: string[];
  directives?: string[];
  /** printed as the field's description (`"""…"""`) */
  description?: string;
}

const suffix = (directives: string[] | undefined): string =>
  directives && directives.length > 0 ? ` ${directives.join(' ')}` : '';

/** A description in SDL: a block string, with what would end it escaped. */
export const printDescription = (text: string, indent = ''): string => `${indent}"""${text.replaceAll('"""', '\\"""')}"""\n`;

const printField = ({ name, type, args, directives, description }: SdlField): string =>
  `${description ? printDescription(description, '  ') : ''}  ${name}${args && args.length > 0 ? `(${args.join(', ')})` : ''}: ${type}${suffix(directives)}`;

export const printBlock = (keyword: 'type' | 'input', name: string, fields: SdlField[], directives?: string[], description?: string): string =>
  `${description ? printDescription(description) : ''}${keyword} ${name}${suffix(directives)} {\n${fields.map(printField).join('\n')}\n}`;

export const DISABLED = '@disabled';
export const authDirective = (scopes: string[]): string =>
  `@auth(scope: [${scopes.map((scope) => JSON.stringify(scope)).join(', ')}])`;
