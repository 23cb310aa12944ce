import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { GraphQLError, Kind, parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import { persistedStorePath } from '../config/load-config';
import { assembleProject } from '../app/served-schema';
import { parseArgs } from './parse-args';
import { PERSISTED_USAGE } from './usage';
import { processOutput, type Output } from './token-command';

/**
 * `folio persisted add|list`: the trusted-documents store (`graphql.config.persistedOperations.store`,
 * a JSON object of sha256 → document). `add` checks each document against the schema `/graphql` serves
 * before storing it under the sha256 of its text, exactly as given, and prints the hash clients send
 * (`documentId`, or Apollo's `extensions.persistedQuery.sha256Hash`). The server reads the store at start.
 */

const FLAGS = new Set(['schema', 'config']);

type Documents = Record<string, string>;

const storePathOf = (configDir: string): string => {
  const path = persistedStorePath({ configDir });
  if (path === undefined) {
    throw new Error(`No trusted-documents store: set graphql.config.persistedOperations.store in ${resolve(configDir, 'plugins')} (e.g. { "store": "persisted.json" })`);
  }
  return path;
};

const readStore = (path: string): Documents => (existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Documents) : {});

const writeStore = (path: string, documents: Documents) => {
  // written whole, then renamed: a server starting meanwhile reads the old store or the new one, never half of one
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(documents, null, 2)}\n`);
  renameSync(partial, path);
};

const operationNames = (document: DocumentNode): string =>
  document.definitions.flatMap((definition) => (definition.kind === Kind.OPERATION_DEFINITION ? [definition.name?.value ?? '(anonymous)'] : [])).join(', ');

const located = (file: string, error: GraphQLError): string => {
  const at = error.locations?.[0];
  return `${file}${at ? `:${at.line}:${at.column}` : ''}: ${error.message}`;
};

/** The file's document, parsed and valid against `schema`, or an error naming the file and position. */
const checkedDocument = (file: string, text: string, schema: GraphQLSchema): DocumentNode => {
  let document: DocumentNode;
  try {
    document = parse(text);
  } catch (error) {
    throw new Error(error instanceof GraphQLError ? located(file, error) : `${file}: ${(error as Error).message}`);
  }
  const errors = validate(schema, document);
  if (errors.length > 0) throw new Error(errors.map((error) => located(file, error)).join('\n'));
  return document;
};

const add = async (files: string[], schemaDir: string, configDir: string, { out, err }: Output) => {
  if (files.length === 0) throw new Error(`Usage:\n${PERSISTED_USAGE}`);
  const path = storePathOf(configDir);
  // the start-up checks read the store: a first `add` makes it
  if (!existsSync(path)) writeStore(path, {});
  const schema = await assembleProject({ schemaDir, configDir });
  const documents = readStore(path);
  const added: string[] = [];
  for (const file of files) {
    const text = readFileSync(resolve(file), 'utf8');
    const document = checkedDocument(file, text, schema);
    const hash = createHash('sha256').update(text).digest('hex');
    if (documents[hash] === undefined) added.push(hash);
    documents[hash] = text;
    out(`${hash}  ${operationNames(document)}  ${file}\n`);
  }
  writeStore(path, documents);
  err(`${added.length} added to ${path} (${Object.keys(documents).length} in all); a running Folio serves them after a restart\n`);
};

const list = (configDir: string, { out, err }: Output) => {
  const path = storePathOf(configDir);
  const documents = readStore(path);
  for (const [hash, text] of Object.entries(documents)) out(`${hash}  ${operationNames(parse(text))}\n`);
  err(`${Object.keys(documents).length} in ${path}\n`);
};

export const runPersistedCommand = async (argv: string[], output: Output = processOutput): Promise<void> => {
  const { command, flags, positionals } = parseArgs(argv, FLAGS);
  const configDir = resolve(flags.config ?? 'config');
  const schemaDir = resolve(flags.schema ?? 'schema');
  if (command === 'add') return add(positionals, schemaDir, configDir, output);
  if (command === 'list' && positionals.length === 0) return list(configDir, output);
  throw new Error(`Usage:\n${PERSISTED_USAGE}`);
};
