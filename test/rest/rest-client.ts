import type { TestServer } from '../support/test-server';

/** REST requests against a test server, as the admin token unless `headers` says otherwise. */

export interface RestResponse<T = Any> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

/** Responses are JSON that assertions read field by field: typed loosely on purpose. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** send no Authorization header (the Public role) */
  anonymous?: boolean;
}

export const restClient = (server: TestServer) => {
  const request = async <T = Any>(method: string, path: string, options: RequestOptions = {}): Promise<RestResponse<T>> => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(options.anonymous ? {} : server.asAdmin), ...options.headers },
      body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
    });
    const text = await response.text();
    let body: T = undefined as T;
    try {
      body = text ? (JSON.parse(text) as T) : body;
    } catch {
      // not JSON: the assertions read `text`
    }
    return { status: response.status, headers: response.headers, text, body };
  };
  return {
    request,
    get: <T = Any>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
    post: <T = Any>(path: string, data: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body: { data } }),
    put: <T = Any>(path: string, data: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body: { data } }),
    del: <T = Any>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
    /** creates and returns the document (fails the test on anything but 201) */
    async create(path: string, data: Record<string, unknown>): Promise<Any> {
      const response = await request('POST', path, { body: { data } });
      if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${response.text}`);
      return response.body.data;
    },
  };
};

export type RestClient = ReturnType<typeof restClient>;

/** `qs.stringify(query, { encodeValuesOnly: true })`, as Strapi's docs build query strings. */
export { stringify as queryString } from 'qs';
