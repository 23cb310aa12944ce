import { strapiPackages } from '../../src/project/strapi-packages';
import { coreActionError, projectErrorBody } from '../../src/server/project-routes/project-answer';

/** `require('@strapi/utils').errors` as Strapi 5 gives it: its ApplicationError classes, and http-errors' HttpError beside them. */

type ErrorClass = new (...args: unknown[]) => Error;
const { errors } = strapiPackages(() => ({})).get('@strapi/utils') as { errors: Record<string, ErrorClass> };

test("errors.HttpError is http-errors 2.0.0's abstract base: neither it nor a subclass can be constructed", () => {
  const { HttpError } = errors;
  expect(() => new HttpError(404, 'no such page')).toThrow(new TypeError('cannot construct abstract class'));
  class Gone extends HttpError {}
  expect(() => new Gone()).toThrow(TypeError);
});

test('ApplicationErrors are not HttpErrors', () => {
  expect(new errors.NotFoundError()).toBeInstanceOf(errors.ApplicationError);
  expect(new errors.NotFoundError()).not.toBeInstanceOf(errors.HttpError);
});

test("a core action's refusal no Strapi class gives is an HttpError of its name, answering its envelope", () => {
  const body = { status: 503, name: 'ServiceUnavailableError', message: 'The store is unavailable', details: {} };
  const error = coreActionError(body) as Error & { status: number; statusCode: number; expose: boolean };
  expect(error).toBeInstanceOf(errors.HttpError);
  expect(error).not.toBeInstanceOf(errors.ApplicationError);
  expect([error.name, error.message, error.status, error.statusCode, error.expose]).toEqual(['ServiceUnavailableError', 'The store is unavailable', 503, 503, false]);
  expect(projectErrorBody(error, undefined)).toEqual(body);
});

test("Strapi's error classes are named, and their errors hold name, message and details as their own keys, as Strapi's do", () => {
  for (const name of ['ApplicationError', 'ValidationError', 'PaginationError', 'NotFoundError', 'ForbiddenError', 'UnauthorizedError', 'RateLimitError', 'PayloadTooLargeError', 'PolicyError', 'NotImplementedError']) {
    const error = new errors[name]('refused', { why: 'test' });
    expect([errors[name].name, error.constructor.name, error.name]).toEqual([name, name, name]);
    expect(Object.keys(error)).toEqual(['name', 'message', 'details']);
    expect(JSON.parse(JSON.stringify(error))).toEqual({ name, message: 'refused', details: { why: 'test' } });
    expect(String(error)).toBe(`${name}: refused`);
  }
  expect(new errors.PolicyError()).toMatchObject({ name: 'PolicyError', message: 'Policy Failed', details: {} });
  expect(new errors.PolicyError()).toBeInstanceOf(errors.ForbiddenError);
});
