import { request, Agent } from 'node:http';

/**
 * Requests to one worker of a `folio start` group (server.workers): a keep-alive connection the worker
 * answered, told by `x-folio-worker` (the primary hands new connections to the workers in turn).
 */

export interface Answer<T> {
  status: number;
  worker: string | undefined;
  body: T;
}

/** a connection answered by worker `worker`: new ones are opened until one is (the primary hands them round) */
export const pinned = async (url: string, worker: string): Promise<Agent> => {
  // a worker started again (from the TypeScript sources, as tests run it) took over 5 s to join on a loaded machine
  for (const until = Date.now() + 30_000; Date.now() < until; ) {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    if ((await send(url, agent, 'GET', '/_health')).worker === worker) return agent;
    agent.destroy();
    // a worker starting again has not joined the port yet
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no connection reached worker ${worker}`);
};

/** one connection to each worker, found one after the other (found together, each could keep meeting the other's turn) */
export const pinBoth = async (url: string): Promise<[Agent, Agent]> => {
  const first = await pinned(url, '1');
  return [first, await pinned(url, '2')];
};

export const send = <T = unknown>(url: string, agent: Agent, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> =>
  new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const outgoing = request(`${url}${path}`, { agent, method, headers: { ...(text ? { 'content-type': 'application/json' } : {}), ...headers } }, (response) => {
      let received = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (received += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, worker: response.headers['x-folio-worker'] as string | undefined, body: (received ? JSON.parse(received) : undefined) as T }));
    });
    outgoing.on('error', reject);
    outgoing.end(text);
  });

