/**
 * One request of the fuzzer: over HTTP (fetch), or written byte for byte on a socket for what
 * fetch will not send (a bad `Host`, a path starting with `//`, oversized headers).
 */

export type FuzzRequest =
  | { kind: 'http'; method: string; path: string; headers: Record<string, string>; body?: string; asAdmin: boolean; /** which costly shape (costly-shapes.ts), counted in the run's summary */ shape?: string }
  | { kind: 'raw'; text: string };

export interface FuzzAnswer {
  status: number;
  body: string;
  ms: number;
}

/** A reproduction a person can run (the admin token is the fuzz fixture's). */
export const describeRequest = (request: FuzzRequest): string => {
  if (request.kind === 'raw') return `raw: ${JSON.stringify(request.text.length > 2000 ? `${request.text.slice(0, 2000)}…` : request.text)}`;
  const headers = Object.entries(request.headers).map(([name, value]) => ` -H ${JSON.stringify(`${name}: ${value}`)}`).join('');
  const body = request.body === undefined ? '' : ` --data-raw ${JSON.stringify(request.body.length > 2000 ? `${request.body.slice(0, 2000)}…` : request.body)}`;
  return `curl -g -X ${request.method}${request.asAdmin ? ' -H "Authorization: Bearer $ADMIN_TOKEN"' : ''}${headers} "$URL${request.path}"${body}`;
};
