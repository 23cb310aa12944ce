import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { defaultCors } from '../../src/config/defaults';
import type { CorsConfig } from '../../src/config/types';
import { createCors, originRule } from '../../src/server/cors';

/** How the configured `strapi::cors` origin answers a request's `Origin` ('' = the request sent none). */

const APP = 'https://app.example.com';
const OTHER = 'https://other.example.com';

describe('originRule', () => {
  test("'*' with credentials names the request's origin (browsers refuse '*' with credentials)", () => {
    const rule = originRule({ origin: '*', credentials: true });
    expect(rule(APP)).toBe(APP);
    expect(rule('')).toBe('*');
  });

  test("'*' without credentials is '*'", () => {
    expect(originRule({ origin: '*', credentials: false })(APP)).toBe('*');
  });

  test('a list allows the origins it holds, and no other', () => {
    const rule = originRule({ origin: [APP, 'https://admin.example.com'], credentials: true });
    expect(rule(APP)).toBe(APP);
    expect(rule(OTHER)).toBeUndefined();
    expect(rule('')).toBe('*');
    expect(originRule({ origin: [APP], credentials: false })(APP)).toBe(APP);
    expect(originRule({ origin: [], credentials: true })(APP)).toBeUndefined();
  });

  test('a string with commas is a list', () => {
    const rule = originRule({ origin: `${APP}, https://admin.example.com`, credentials: true });
    expect(rule('https://admin.example.com')).toBe('https://admin.example.com');
    expect(rule(OTHER)).toBeUndefined();
  });

  test('one origin is sent whatever the request says', () => {
    const rule = originRule({ origin: APP, credentials: true });
    expect(rule(APP)).toBe(APP);
    expect(rule(OTHER)).toBe(APP);
    expect(rule('')).toBe('*');
  });
});

describe('createCors', () => {
  const exchange = (config: Partial<CorsConfig>, method: string, headers: Record<string, string>) => {
    const request = Object.assign(new IncomingMessage(new Socket()), { method, headers });
    const response = new ServerResponse(request);
    const answered = createCors({ ...defaultCors(), ...config })(request, response);
    return { answered, status: response.statusCode, headers: response.getHeaders() };
  };

  test('an ordinary request gets the origin, credentials and the exposed headers, and goes on to the routes', () => {
    expect(exchange({ expose: ['X-Total', 'X-Page'] }, 'GET', { origin: APP })).toEqual({
      answered: false,
      status: 200,
      headers: {
        vary: 'Origin',
        'access-control-allow-origin': APP,
        'access-control-allow-credentials': 'true',
        'access-control-expose-headers': 'X-Total,X-Page',
      },
    });
    expect(exchange({ credentials: false }, 'POST', {}).headers).toEqual({ vary: 'Origin', 'access-control-allow-origin': '*' });
  });

  test('a preflight is answered with 204 and the configured methods, headers and max age', () => {
    const preflight = { origin: APP, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'x-custom' };
    expect(exchange({ origin: [APP], credentials: false, methods: ['GET', 'PUT'], headers: 'X-Api-Key', maxAge: 600 }, 'OPTIONS', preflight)).toEqual({
      answered: true,
      status: 204,
      headers: {
        vary: 'Origin',
        'access-control-allow-origin': APP,
        'access-control-max-age': '600',
        'access-control-allow-methods': 'GET,PUT',
        'access-control-allow-headers': 'X-Api-Key',
      },
    });
    const { headers } = exchange({ headers: [], maxAge: 0 }, 'OPTIONS', preflight);
    expect(headers['access-control-allow-headers']).toBe('x-custom');
    expect(headers).not.toHaveProperty('access-control-max-age');
  });

  test('an OPTIONS that is not a preflight, or a request from an origin not allowed, goes on without CORS headers', () => {
    expect(exchange({}, 'OPTIONS', { origin: APP })).toEqual({ answered: false, status: 200, headers: { vary: 'Origin' } });
    const preflight = { origin: OTHER, 'access-control-request-method': 'GET' };
    expect(exchange({ origin: [APP] }, 'OPTIONS', preflight)).toEqual({ answered: false, status: 200, headers: { vary: 'Origin' } });
    expect(exchange({ origin: [APP] }, 'GET', { origin: OTHER })).toEqual({ answered: false, status: 200, headers: { vary: 'Origin' } });
  });
});
