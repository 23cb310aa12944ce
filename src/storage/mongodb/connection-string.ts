// mongodb://user:password@host1,host2/database?options — and mongodb+srv://
const DATABASE_IN_URI = /^mongodb(?:\+srv)?:\/\/[^/?]*\/([^?]+)/;

/** The database named in the connection string's path, if any. */
export function databaseNameOf(uri: string): string | undefined {
  const name = DATABASE_IN_URI.exec(uri)?.[1];
  return name ? decodeURIComponent(name) : undefined;
}

/** The connection string without its password, for messages and logs. */
export function redactConnectionString(uri: string): string {
  return uri.replace(/^(mongodb(?:\+srv)?:\/\/[^:@/]*):[^@/]*@/, '$1:***@');
}
