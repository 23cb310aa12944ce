import type { ConfigProblem } from './config-error';
import { MONGODB_URI_PATTERN, type ConfigFile } from './file-schemas';
import type { DatabaseConfig } from './types';

type DatabaseFile = ConfigFile<'database'>;

/** `DATABASE_URL` (as on most hosting platforms) replaces the file's client and uri; the file's options stay. */
export function resolveDatabase(
  fromFile: DatabaseFile | undefined,
  source: string,
  env: NodeJS.ProcessEnv,
  problems: ConfigProblem[],
): DatabaseConfig {
  const options = fromFile?.options ?? {};
  const url = env.DATABASE_URL;
  if (url) {
    if (MONGODB_URI_PATTERN.test(url)) return { client: 'mongodb', uri: url, options };
    // The URL is not echoed: it usually carries a password.
    problems.push({ source: 'env DATABASE_URL', message: 'must be a mongodb:// or mongodb+srv:// URL (Folio stores content in its embedded store or in MongoDB)' });
    return { client: 'embedded', options };
  }
  const client = fromFile?.client ?? 'embedded';
  const uri = fromFile?.uri;
  if (client === 'mongodb' && uri === undefined) {
    problems.push({ source, path: 'uri', message: 'is required when client is "mongodb" (or set DATABASE_URL)' });
  }
  if (client === 'embedded' && uri !== undefined) {
    problems.push({ source, path: 'uri', message: 'only applies to client "mongodb"' });
  }
  return uri === undefined ? { client, options } : { client, uri, options };
}
