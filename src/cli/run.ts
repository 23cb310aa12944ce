import { main } from './main';

/** The process entry of the `folio` command: errors end it with their message and exit code 1. */
main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
