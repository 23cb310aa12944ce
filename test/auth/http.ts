/** Plain HTTP calls against a test server, with the answer's status, headers and parsed body. */

export interface HttpAnswer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export const call = async <T = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<HttpAnswer<T>> => {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...options.headers },
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text === '' ? undefined : JSON.parse(text)) as T };
};

export const bearer = (credential: string): Record<string, string> => ({ authorization: `Bearer ${credential}` });

/** Error envelope of REST answers. */
export interface RestError {
  data: null;
  error: { status: number; name: string; message: string; details?: Record<string, unknown> };
}
