import type { Services } from '../../context';
import type { ContentType } from '../../models/types';
import type { FolioModule } from '../folio-module';
import { createContentRoutes } from '../../rest-compiler/content-routes';
import { createContentHandler } from './content-handler';
import { createProjectRouteHandler } from '../project-routes/project-route-handler';
import { createSofaRoutes } from './sofa-routes';
import { createDocsRoutes, servesApiDocs } from './docs-routes';
import { buildOpenApiDocument } from '../../openapi/openapi-document';

/**
 * The REST API under `/api`: the content routes, compiled onto the executable schema so each
 * request runs as a GraphQL operation through the `/graphql` pipeline, and the routes a project's
 * route files declare around those same actions (with their policies and middlewares); routes for operations
 * hand-written extensions add (sofa-api); the OpenAPI document and Swagger UI.
 */

export const createRestModule = (_services: Services): FolioModule => ({
  name: 'rest',
  routes: (runtime) => {
    const routes = createContentRoutes(runtime.services.models, runtime.schema);
    const sofa = createSofaRoutes(runtime);
    // the document states which roles may call each route: made again when what roles grant changes
    let document: { generation: number; value: unknown } | undefined;
    const { models } = runtime.services;
    const { accounts } = runtime;
    const { projectRoutes } = runtime;
    // an API with route files has the routes they declare, and no others
    const servedByDefault = (contentType: ContentType) => !projectRoutes?.apis.has(contentType.apiName);
    // a core action Shadow CRUD switched off has no route, as it has no content route
    const projectOperations = (projectRoutes?.routes ?? []).flatMap((route) => {
      if (!route.action) return [{ route }];
      const operation = routes.operationOf(route.contentType, route.action);
      return operation ? [{ route, operation }] : [];
    });
    const documentOnce = () => {
      const generation = accounts.generation();
      if (document?.generation !== generation) document = { generation, value: build() };
      return document.value;
    };
    const build = () =>
      buildOpenApiDocument({
        schema: runtime.schema,
        models,
        routes: routes.routes.filter((route) => servedByDefault(route.contentType)),
        projectRoutes: projectOperations,
        extensionPaths: sofa?.paths ?? {},
        roles: accounts.roles(),
      });
    return [
      ...(projectOperations.length > 0 ? [createProjectRouteHandler(runtime, projectOperations, routes)] : []),
      createContentHandler(runtime, routes, servedByDefault),
      ...(servesApiDocs(runtime.services.config) ? [createDocsRoutes(documentOnce)] : []),
      ...(sofa ? [sofa.handle] : []),
    ];
  },
});
