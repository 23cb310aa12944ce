import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ExecutionArgs } from 'graphql';
import type * as Ws from 'ws';
import type * as GraphqlWsOnWs from 'graphql-ws/dist/use/ws';
import type { GraphqlServer } from '../graphql/create-graphql-server';
import { badUserInput } from '../errors/graphql-errors';

/**
 * `graphql-ws` over WebSocket on the GraphQL endpoint, beside yoga's SSE: each operation runs
 * through the same envelop pipeline as an HTTP request (parse, validate with every limit, the
 * context with the caller's credentials, authorization before subscribing). Credentials come from
 * `connectionParams` (`Authorization` or `authorization`) or the upgrade request's header.
 */

export interface GraphqlWsOptions {
  endpoint: string;
  /** operations one connection may run at once. @default 50 */
  maxOperationsPerConnection?: number;
  production: boolean;
}

type Runner = Pick<ReturnType<GraphqlServer['getEnveloped']>, 'execute' | 'subscribe'>;

const credentialsOf = (connectionParams: Readonly<Record<string, unknown>> | undefined, header: string | undefined): string | undefined => {
  const fromParams = connectionParams?.Authorization ?? connectionParams?.authorization;
  return typeof fromParams === 'string' ? fromParams : header;
};

const serveGraphqlWs = (yoga: GraphqlServer, { endpoint, maxOperationsPerConnection = 50, production }: GraphqlWsOptions) => {
  const { WebSocketServer } = require('ws') as typeof Ws;
  // tsconfig resolves modules the node10 way, which ignores graphql-ws's package "exports": the types come from its .d.ts path.
  const { useServer } = require('graphql-ws/use/ws') as typeof GraphqlWsOnWs;
  const sockets = new WebSocketServer({ noServer: true, path: endpoint, maxPayload: 1024 * 1024 });
  const operations = new WeakMap<object, Set<string>>();
  const disposable = useServer(
    {
      isProd: production,
      execute: (args) => (args.rootValue as Runner).execute(args),
      subscribe: (args) => (args.rootValue as Runner).subscribe(args),
      onSubscribe: async (context, id, payload) => {
        const running = operations.get(context.extra.socket) ?? new Set<string>();
        operations.set(context.extra.socket, running);
        if (running.size >= maxOperationsPerConnection) return [badUserInput(`at most ${maxOperationsPerConnection} operations may run on one connection`)];
        const headers = new yoga.fetchAPI.Headers();
        const authorization = credentialsOf(context.connectionParams, context.extra.request.headers.authorization);
        if (authorization) headers.set('authorization', authorization);
        const request = new yoga.fetchAPI.Request(`http://folio.invalid${endpoint}`, { headers });
        // `req`: the upgrade request, for the client's address (as yoga gives its node requests)
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({ request, params: payload, req: context.extra.request });
        let document;
        try {
          document = parse(payload.query);
        } catch (error) {
          return [badUserInput((error as Error).message)];
        }
        const errors = validate(schema, document);
        if (errors.length > 0) return errors;
        running.add(id);
        const args: ExecutionArgs = {
          schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe } satisfies Runner,
        };
        return args;
      },
      onComplete: (context, id) => {
        operations.get(context.extra.socket)?.delete(id);
      },
    },
    sockets,
  );
  return {
    sockets,
    close: async () => {
      await disposable.dispose();
      for (const client of sockets.clients) client.terminate();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
    },
  };
};

/**
 * Serves `graphql-ws` on `server`'s upgrade requests. ws and graphql-ws are loaded by the first one (~13 ms and
 * ~15 modules of every start that no WebSocket asks for), and the upgrade handled as `new WebSocketServer({ server,
 * path })` handles it: anything but a GET upgrade to `endpoint` is refused by ws.
 */
export const attachGraphqlWs = (server: Server, yoga: GraphqlServer, options: GraphqlWsOptions) => {
  let served: ReturnType<typeof serveGraphqlWs> | undefined;
  const upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    served ??= serveGraphqlWs(yoga, options);
    const { sockets } = served;
    sockets.handleUpgrade(request, socket, head, (client) => sockets.emit('connection', client, request));
  };
  server.on('upgrade', upgrade);
  return {
    close: async () => {
      server.off('upgrade', upgrade);
      await served?.close();
    },
  };
};
