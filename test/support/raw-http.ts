import { connect } from 'node:net';

/**
 * One HTTP/1.1 exchange written byte for byte: for requests fetch() will not send (a bad `Host`,
 * a path starting with `//`, oversized headers). The request should say `Connection: close`; the
 * answer is read to the end of the connection, or `timedOut` when none ends within `timeoutMs`.
 */

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  timedOut: boolean;
}

const decodeChunked = (body: string): string => {
  let out = '';
  let rest = body;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!(size > 0)) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
};

export const rawRequest = (baseUrl: string, request: string, timeoutMs = 5000): Promise<RawAnswer> => {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    // written, not ended: a client's half-close before the answer makes node drop the request
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let received = '';
    const finish = (timedOut: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      const [head, ...bodyParts] = received.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      const rawBody = bodyParts.join('\r\n\r\n');
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: headers['transfer-encoding'] === 'chunked' ? decodeChunked(rawBody) : rawBody, timedOut });
    };
    const timer = setTimeout(() => finish(true), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
    });
    socket.on('end', () => finish(false));
    socket.on('error', () => finish(false));
  });
};
