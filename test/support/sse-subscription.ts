/**
 * GraphQL subscriptions over Server-Sent Events (graphql-yoga's transport), as a client runs them: it POSTs the
 * subscription with `Accept: text/event-stream` and reads `event: next` messages into `results`.
 */

export interface Stream {
  results: Array<{ data?: Record<string, unknown> | null; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }>;
  status: number;
  close(): void;
}

export const subscribe = async (server: { url: string }, query: string, headers: Record<string, string> = {}): Promise<Stream> => {
  const controller = new AbortController();
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ query }),
    signal: controller.signal,
  });
  const stream: Stream = { results: [], status: response.status, close: () => controller.abort() };
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = message.split('\n').find((line) => line.startsWith('data:'));
          if (message.startsWith('event: next') && data) stream.results.push(JSON.parse(data.slice(5)) as Stream['results'][number]);
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  // the subscription is registered once the server has read the request; give it that turn
  await new Promise((resolve) => setTimeout(resolve, 100));
  return stream;
};
