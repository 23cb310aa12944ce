import { createKoaContext, type KoaContextInit } from '../../src/server/project-routes/koa-context';
import { ValidationError, NotFoundError, type HttpError } from '../../src/project/strapi-errors';

/** The part of Koa's ctx project code gets behaves as Koa's does; the rest throws naming the member. */

const init = (over: Partial<KoaContextInit> = {}): KoaContextInit => ({
  method: 'GET',
  url: '/api/articles?sort=title',
  path: '/api/articles',
  headers: { 'x-tenant': 'acme' },
  query: { sort: 'title' },
  params: { id: 'abc' },
  body: { data: { title: 'A' } },
  state: { user: { id: 1 } },
  ...over,
});

/** what ctx is to project code: any member may be asked for */
type Loose = Record<string, unknown> & { request: Record<string, unknown>; throw(...args: unknown[]): never; set(...args: unknown[]): void; get(field: string): string };
const loose = (over?: Partial<KoaContextInit>) => createKoaContext(init(over)) as unknown as Loose & ReturnType<typeof createKoaContext>;

test('query, params, request.body and state are the request’s; ctx.query and ctx.request.query are one value', () => {
  const ctx = loose();
  expect(ctx.query).toEqual({ sort: 'title' });
  expect(ctx.params).toEqual({ id: 'abc' });
  expect(ctx.request.body).toEqual({ data: { title: 'A' } });
  expect(ctx.state).toEqual({ user: { id: 1 } });
  ctx.query = { populate: '*' };
  expect(ctx.request.query).toEqual({ populate: '*' });
  ctx.request.query = { fields: ['title'] };
  expect(ctx.query).toEqual({ fields: ['title'] });
  expect([ctx.method, ctx.path, ctx.url, ctx.get('X-Tenant')]).toEqual(['GET', '/api/articles', '/api/articles?sort=title', 'acme']);
});

test("status follows Koa's rules: 404 with nothing, 200 once a body is set, 204 for null, what the code sets wins", () => {
  const ctx = loose();
  expect([ctx.status, ctx.explicitStatus]).toEqual([404, undefined]);
  ctx.body = { data: [] };
  expect(ctx.status).toBe(200);
  ctx.body = null;
  expect(ctx.status).toBe(204);
  ctx.status = 201;
  expect([ctx.status, ctx.explicitStatus]).toEqual([201, 201]);
  expect(() => {
    ctx.status = 42;
  }).toThrow('ctx.status: invalid status code 42');
});

test('set records response headers, one by one or as an object', () => {
  const ctx = loose();
  ctx.set('X-Cache', 'miss');
  ctx.set({ 'Cache-Control': 'no-store', 'X-Count': 3 });
  ctx.set('Vary', ['Origin', 'Accept']);
  expect(ctx.responseHeaders).toEqual({ 'x-cache': 'miss', 'cache-control': 'no-store', 'x-count': '3', vary: 'Origin, Accept' });
});

test("throw makes http-errors' error: status, Koa's name for it, message, in any order", () => {
  const thrown = (...args: unknown[]) => {
    try {
      loose().throw(...args);
    } catch (error) {
      return error as HttpError;
    }
    throw new Error('expected a throw');
  };
  expect(thrown(418, 'short and stout')).toMatchObject({ status: 418, name: 'ImATeapotError', message: 'short and stout', details: {} });
  expect(thrown('no such page', 404)).toMatchObject({ status: 404, name: 'NotFoundError', message: 'no such page' });
  expect(thrown(400, 'bad', { details: { field: 'x' } })).toMatchObject({ status: 400, name: 'BadRequestError', details: { field: 'x' } });
  expect(thrown()).toMatchObject({ status: 500, name: 'InternalServerError', message: 'Internal Server Error' });
  expect(thrown(200)).toMatchObject({ status: 500 });
});

test("Strapi's shortcuts throw Strapi's errors", () => {
  const ctx = loose() as unknown as { badRequest(message: string, details?: object): never; notFound(): never };
  expect(() => ctx.badRequest('Title is required', { field: 'title' })).toThrow(ValidationError);
  expect(() => ctx.notFound()).toThrow(NotFoundError);
});

test('a member outside the subset throws naming it, on ctx and on ctx.request; probes of interop answer nothing', () => {
  const ctx = loose();
  expect(() => ctx.cookies).toThrow(/^ctx\.cookies is not supported by Folio \(project code gets ctx\.query, params, request\.body/);
  expect(() => ctx.request.files).toThrow(/^ctx\.request\.files is not supported by Folio/);
  expect(ctx.then).toBeUndefined();
  // code may keep its own values on ctx, as on Koa's
  ctx.tenant = 'acme';
  expect(ctx.tenant).toBe('acme');
});
