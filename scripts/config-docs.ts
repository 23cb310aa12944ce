import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { CONFIG_FILE_SCHEMAS, corsConfigSchema } from '../src/config/file-schemas';
import { securityConfigSchema } from '../src/config/security-schema';

/**
 * docs/configuration.md is written from the schemas start-up validates with: the prose lives in
 * scripts/configuration.template.md, and each `<!-- config-keys: <file> [<prefix>] -->` line becomes the table
 * of that file's keys (under the prefix): type, default and example from each key's schema and `meta`.
 *   node -r ./test/support/register-ts.js scripts/config-docs.ts   (npm run docs:config)
 */

export const TEMPLATE = join(__dirname, 'configuration.template.md');
export const OUTPUT = join(__dirname, '..', 'docs', 'configuration.md');

const DOCUMENTED: Record<string, z.ZodType> = { ...CONFIG_FILE_SCHEMAS, 'strapi::cors': corsConfigSchema, 'strapi::security': securityConfigSchema };

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  required?: string[];
  description?: string;
  default?: unknown;
  defaultText?: string;
  example?: unknown;
}

interface Row {
  path: string;
  schema: JsonSchema;
  required: boolean;
}

const toJsonSchema = (schema: z.ZodType): JsonSchema =>
  z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    // every key of the meta as given (zod leaves out some falsy ones, such as a default of false)
    override: ({ zodSchema, jsonSchema }) => Object.assign(jsonSchema, z.globalRegistry.get(zodSchema as z.core.$ZodType)),
  }) as JsonSchema;

const code = (value: unknown) => `\`${JSON.stringify(value)}\``;

function typeOf(schema: JsonSchema): string {
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' or ');
  if (schema.enum) return `one of ${schema.enum.map((value) => JSON.stringify(value)).join(', ')}`;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  switch (schema.type) {
    case 'integer': {
      const max = schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER ? schema.maximum : undefined;
      if (max !== undefined) return `integer ${schema.minimum}–${max}`;
      return schema.minimum !== undefined && schema.minimum > Number.MIN_SAFE_INTEGER ? `integer ≥ ${schema.minimum}` : 'integer';
    }
    case 'array':
      return `${schema.minItems ? 'non-empty ' : ''}array of ${schema.items ? typeOf(schema.items) : 'any'}`;
    case 'object':
      if (!schema.properties && typeof schema.additionalProperties === 'object' && Object.keys(schema.additionalProperties).length > 0) {
        return `object of ${typeOf(schema.additionalProperties)}`;
      }
      return 'object';
    case 'null':
      return 'null';
    case undefined:
      return 'any';
    default:
      return schema.type;
  }
}

/** The keys under a schema, depth first: objects' properties, list items (`[]`) and named entries (`<name>`). */
function rowsOf(schema: JsonSchema, path: string, rows: Row[], required = false): void {
  const documented = schema.description !== undefined || schema.default !== undefined || schema.defaultText !== undefined;
  const nested = [schema, ...(schema.anyOf ?? [])];
  const leaf = !nested.some((option) => option.properties || option.items?.properties || (typeof option.additionalProperties === 'object' && option.additionalProperties.properties));
  if (path && (documented || leaf)) rows.push({ path, schema, required });
  for (const option of nested) {
    for (const [key, property] of Object.entries(option.properties ?? {})) {
      rowsOf(property, path ? `${path}.${key}` : key, rows, option.required?.includes(key));
    }
    if (option.items?.properties) rowsOf({ ...option.items, description: undefined, default: undefined }, `${path}[]`, rows);
    if (typeof option.additionalProperties === 'object' && option.additionalProperties.properties) {
      rowsOf({ ...option.additionalProperties, description: undefined, default: undefined }, `${path}.<name>`, rows);
    }
  }
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function table(name: string, prefix: string): string {
  const schema = DOCUMENTED[name];
  if (!schema) throw new Error(`${TEMPLATE}: no schema named ${name}`);
  const rows: Row[] = [];
  rowsOf(toJsonSchema(schema), '', rows);
  const under = rows.filter((row) => !prefix || row.path.startsWith(`${prefix}.`)).map((row) => ({ ...row, path: prefix ? row.path.slice(prefix.length + 1) : row.path }));
  if (under.length === 0) throw new Error(`${TEMPLATE}: no keys of ${name} under ${prefix}`);
  const lines = under.map(({ path, schema: key, required }) => {
    const fallback = key.defaultText ?? (key.default !== undefined ? code(key.default) : required ? 'required' : '');
    const example = key.example === undefined ? '' : code(key.example);
    return `| \`${path}\` | ${cell(typeOf(key))} | ${cell(fallback)} | ${cell(example)} | ${cell(key.description ?? '')} |`;
  });
  return ['| key | type | default | example | what it does |', '| --- | --- | --- | --- | --- |', ...lines].join('\n');
}

export function renderConfigurationDocs(template: string): string {
  const generated = '<!-- Written by `npm run docs:config` from scripts/configuration.template.md and the config schemas (src/config/file-schemas.ts): edit those, not this file. -->\n';
  return generated + template.replace(/^<!-- config-keys: (\S+)(?: (\S+))? -->$/gm, (_, name: string, prefix = '') => table(name, prefix));
}

if (require.main === module) {
  writeFileSync(OUTPUT, renderConfigurationDocs(readFileSync(TEMPLATE, 'utf8')));
  console.log(`wrote ${OUTPUT}`);
}
