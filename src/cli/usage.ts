/**
 * The usage lines of the commands with subcommands, apart from the commands themselves: `folio --help` prints
 * them without loading what the commands load (the server, the store, GraphQL: ~1 s of a process's start).
 */

export const TOKEN_USAGE = `  folio token create --name NAME --type full-access|read-only|custom [--permissions a,b] [--expires-in 30d] [--description TEXT] [--data DIR] [--config DIR]
  folio token list [--data DIR] [--config DIR]
  folio token revoke NAME [--data DIR] [--config DIR]`;

export const WEBHOOK_USAGE = `  folio webhook list [--config DIR]
  folio webhook add --name NAME --url URL --events entry.create,entry.update,… [--secret S] [--config DIR]
  folio webhook remove NAME [--config DIR]
  folio webhook test NAME [--config DIR]
  folio webhook failed [NAME] [--data DIR] [--config DIR]
  folio webhook retry [NAME] [--data DIR] [--config DIR]`;

export const PERSISTED_USAGE = `  folio persisted add FILE… [--schema DIR] [--config DIR]      (.graphql files; prints each one's hash)
  folio persisted list [--config DIR]`;
