import type { Services } from '../resolvers/context';
import type { FolioModule } from '../server/folio-module';
import { createContentHandler } from './content-handler';

/**
 * The REST content API under `/api`, compiled onto the executable schema: each request becomes
 * a GraphQL operation run through the same pipeline as `/graphql`.
 */
export const createRestModule = (_services: Services): FolioModule => ({
  name: 'rest',
  routes: (runtime) => [createContentHandler(runtime)],
});
