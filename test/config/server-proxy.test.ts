import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { TrustedProxy } from '../../src/config/types';
import { clientAddressOf } from '../../src/resolvers/client-address';
import { configErrorLines, loadFrom } from './config-dir';

/** `server.proxy`: whether the client's address (the rate limiter's key) is read from the reverse proxy's header. */

const proxyOf = (proxy: unknown) => loadFrom({ 'server.json': { proxy } }).server.proxy;

describe('config', () => {
  test('off by default', () => {
    expect(loadFrom({}).server.proxy).toBe(false);
    expect(loadFrom({ 'server.json': { port: 1400 } }).server).toEqual({ host: '127.0.0.1', port: 1400, proxy: false, maxHeaderSize: 16384, metrics: false, workers: 'auto', heapGrowingPercent: 0, softMemoryLimit: 512 * 1024 * 1024 });
  });

  test("Strapi 5's { koa: true }, with koa's maxIpsCount and ipHeader (Strapi 5.52+)", () => {
    expect(proxyOf({ koa: true })).toEqual({ ipHeader: 'x-forwarded-for', maxIpsCount: 0 });
    expect(proxyOf({ koa: true, maxIpsCount: 1, ipHeader: 'CF-Connecting-IP' })).toEqual({ ipHeader: 'cf-connecting-ip', maxIpsCount: 1 });
    expect(proxyOf({ koa: false, maxIpsCount: 1 })).toBe(false);
    expect(proxyOf({})).toBe(false);
  });

  test("Strapi v4's bare boolean", () => {
    expect(proxyOf(true)).toEqual({ ipHeader: 'x-forwarded-for', maxIpsCount: 0 });
    expect(proxyOf(false)).toBe(false);
  });

  test('proxies for outgoing requests are accepted and ignored', () => {
    expect(proxyOf({ koa: true, global: 'http://proxy:3128', fetch: { uri: 'http://proxy:3128' }, http: 'x', https: 'y' })).toEqual({
      ipHeader: 'x-forwarded-for',
      maxIpsCount: 0,
    });
    expect(proxyOf({ global: 'http://proxy:3128' })).toBe(false);
  });

  test('from a .js file with env', () => {
    const config = loadFrom({ 'server.js': "module.exports = ({ env }) => ({ proxy: { koa: env.bool('IS_PROXIED', false) } });" }, { env: { IS_PROXIED: 'true' } });
    expect(config.server.proxy).toEqual({ ipHeader: 'x-forwarded-for', maxIpsCount: 0 });
  });

  test('wrong values name the key', () => {
    expect(configErrorLines({ 'server.json': { proxy: 'yes' } })).toEqual(['config/server.json: proxy must be a boolean or an object such as { "koa": true }, got "yes"']);
    expect(configErrorLines({ 'server.json': { proxy: { koa: 'true', maxIpsCount: -1, ipHeader: 'X Forwarded', Koa: true } } })).toEqual([
      'config/server.json: proxy.koa must be a boolean, got "true"',
      'config/server.json: proxy.maxIpsCount must be a non-negative integer, got -1',
      'config/server.json: proxy.ipHeader must be a header name such as "X-Forwarded-For", got "X Forwarded"',
      'config/server.json: proxy.Koa is not a known option (did you mean koa?)',
    ]);
  });
});

describe("the client's address (koa's ctx.ip)", () => {
  const trusted: TrustedProxy = { ipHeader: 'x-forwarded-for', maxIpsCount: 0 };
  const requestFrom = (peer: string, headers: Record<string, string> = {}) => {
    const socket = new Socket();
    Object.defineProperty(socket, 'remoteAddress', { value: peer });
    const request = new IncomingMessage(socket);
    request.headers = headers;
    return request;
  };

  test('without a trusted proxy: the peer, whatever the header says', () => {
    expect(clientAddressOf(requestFrom('10.0.0.1', { 'x-forwarded-for': '203.0.113.7' }), false)).toBe('10.0.0.1');
  });

  test("behind one: the header's first address, else the peer", () => {
    expect(clientAddressOf(requestFrom('10.0.0.1', { 'x-forwarded-for': '203.0.113.7' }), trusted)).toBe('203.0.113.7');
    expect(clientAddressOf(requestFrom('10.0.0.1', { 'x-forwarded-for': ' 203.0.113.7 , 198.51.100.2' }), trusted)).toBe('203.0.113.7');
    expect(clientAddressOf(requestFrom('10.0.0.1'), trusted)).toBe('10.0.0.1');
    expect(clientAddressOf(requestFrom('10.0.0.1', { 'x-forwarded-for': '' }), trusted)).toBe('10.0.0.1');
  });

  test('maxIpsCount keeps the last addresses, those the proxies wrote: a forged first one is passed over', () => {
    const forged = requestFrom('10.0.0.1', { 'x-forwarded-for': '1.2.3.4, 203.0.113.7' });
    expect(clientAddressOf(forged, { ...trusted, maxIpsCount: 1 })).toBe('203.0.113.7');
    expect(clientAddressOf(forged, { ...trusted, maxIpsCount: 2 })).toBe('1.2.3.4');
    expect(clientAddressOf(forged, { ...trusted, maxIpsCount: 5 })).toBe('1.2.3.4');
  });

  test('another header', () => {
    const request = requestFrom('10.0.0.1', { 'x-forwarded-for': '1.2.3.4', 'cf-connecting-ip': '203.0.113.9' });
    expect(clientAddressOf(request, { ipHeader: 'cf-connecting-ip', maxIpsCount: 0 })).toBe('203.0.113.9');
  });
});
