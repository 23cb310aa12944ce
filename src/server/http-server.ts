import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Services } from '../context';
import type { GraphqlServer } from '../graphql/create-graphql-server';
import type { HttpRoute } from './folio-module';
import { INTERNAL_ERROR, errorBody } from './error-envelope';
import { badRequestError, notFoundError } from '../errors/graphql-errors';
import { createClientErrorHandler } from './client-errors';
import { requestUrl } from './request-url';
import { sendError, sendJson } from './http-json';
import { createGraphqlRequestHandler } from './graphql-request-handler';
import { servesGraphiql } from '../graphql/create-graphql-server';
import { createCors } from './cors';
import { createSecurityHeaders } from './security-headers';
import { attachGraphqlWs } from './graphql-ws';
import { createGracefulClose } from './graceful-close';
import { createLandingPage } from './landing-page';
import { graphiqlAssetsRoute } from './graphiql-assets-route';
import { createMetricsRoute, createRequestMeter } from './metrics-route';
import type { FolioMetrics } from '../metrics/folio-metrics';

/**
 * The HTTP front: security headers and CORS on every answer, then routes to GraphQL, the health check, the
 * landing page (outside production), and Strapi's 404 envelope for the rest.
 */

/** What the HTTP server serves: an assembled instance's GraphQL pipeline and routes, over its config and store. */
export interface Served {
  services: Pick<Services, 'config' | 'store'>;
  graphql: GraphqlServer;
  routes: HttpRoute[];
  /** what `/metrics` reports, when `server.metrics` is on */
  metrics?: FolioMetrics;
}

export interface RunningServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

const tryRoutes = async (routes: HttpRoute[], request: IncomingMessage, response: ServerResponse, url: URL) => {
  for (const route of routes) {
    if (await route(request, response, url)) return;
  }
  sendError(response, errorBody(notFoundError()));
};

/** `worker`: the number of this process among the workers of one `folio start`, told in `x-folio-worker` */
const createRequestListener = (folio: Served, worker: number | undefined) => {
  const { endpoint, enabled: graphqlEnabled } = folio.services.config.graphql;
  const handleGraphql = createGraphqlRequestHandler(folio.graphql, folio.services.config.rest.bodyLimit);
  const { cors, security } = folio.services.config;
  const answerCors = cors === false ? () => false : createCors(cors);
  const graphiqlEndpoint = graphqlEnabled && servesGraphiql(folio.services.config) ? endpoint : undefined;
  const setSecurityHeaders = security === false ? () => undefined : createSecurityHeaders(security, { graphiqlEndpoint });
  const landingPage = createLandingPage(folio.services.config);
  const { metrics } = folio;
  const metricsConfig = folio.services.config.server.metrics;
  const routes = [
    ...(landingPage ? [landingPage] : []),
    ...(metrics && metricsConfig ? [createMetricsRoute(metrics, metricsConfig.token)] : []),
    ...(graphiqlEndpoint === undefined ? [] : [graphiqlAssetsRoute]),
    ...folio.routes,
  ];
  const meter = metrics ? createRequestMeter(metrics, endpoint) : undefined;
  const workerHeader = worker === undefined ? undefined : String(worker);
  /** settles once the request is answered, or its client gone and its work done */
  return (request: IncomingMessage, response: ServerResponse): Promise<void> | undefined => {
    meter?.(request, response);
    if (workerHeader) response.setHeader('x-folio-worker', workerHeader);
    // Before CORS, as in Strapi's order (`strapi::security` then `strapi::cors`): preflight answers carry them too.
    setSecurityHeaders(request, response);
    if (answerCors(request, response)) return undefined;
    const url = requestUrl(request);
    if (!url || (request.httpVersion === '1.1' && request.headers.host === undefined)) {
      sendError(response, errorBody(badRequestError(url ? 'An HTTP/1.1 request must have a Host header' : 'The request target is not a path')));
      return undefined;
    }
    const path = url.pathname;
    // `graphql.enabled: false` closes the endpoint only: REST still runs on the same pipeline
    if (graphqlEnabled && path === endpoint) return handleGraphql(request, response, url);
    if (path === '/_health') {
      return folio.services.store.ping().then(
        (up) => sendJson(response, up ? 200 : 503, { status: up ? 'ok' : 'unavailable', store: up ? 'up' : 'down' }),
        () => sendJson(response, 503, { status: 'unavailable', store: 'down' }),
      );
    }
    return tryRoutes(routes, request, response, url).catch((error: Error) => {
      process.stderr.write(`${error.stack ?? error.message}\n`);
      sendError(response, INTERNAL_ERROR);
    });
  };
};

/** how long the requests under way when the server stops get to finish before their connections are cut */
const STOP_GRACE_MS = 10_000;

/** `worker`: this process's number among the workers of one `folio start`, when there are several */
export const listen = (folio: Served, host: string, port: number, { worker }: { worker?: number } = {}): Promise<RunningServer> =>
  new Promise((resolve, reject) => {
    const { config } = folio.services;
    // Host is not required by node: a request without one gets Folio's own 400 (see createRequestListener)
    const graceful = createGracefulClose(STOP_GRACE_MS);
    const server = createServer({ maxHeaderSize: config.server.maxHeaderSize, requireHostHeader: false }, graceful.track(createRequestListener(folio, worker)));
    server.keepAliveTimeout = 5000;
    server.on('clientError', createClientErrorHandler(config.server.maxHeaderSize));
    const { metrics } = folio;
    if (metrics) {
      server.on('connection', (socket) => {
        metrics.activeConnections.inc();
        socket.once('close', () => metrics.activeConnections.dec());
      });
    }
    const sockets = config.graphql.enabled ? attachGraphqlWs(server, folio.graphql, { endpoint: config.graphql.endpoint, production: config.env === 'production' }) : undefined;
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        url: `http://${shownHost}:${address.port}`,
        server,
        close: async () => {
          await sockets?.close();
          await graceful.close(server);
        },
      });
    });
  });
