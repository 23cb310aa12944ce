import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FolioConfig } from '../../config/types';
import { sendJson } from '../http-json';

/**
 * `/api/openapi.json` and Swagger UI at `/api/docs/` (`/documentation`, Strapi's path, leads there), served
 * from the swagger-ui-dist package (no CDN). Only the files the page loads are served, each read once.
 */

const ASSETS: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
    // no badge from validator.swagger.io: the security policy's img-src refuses it, and it would send the spec's URL away
    validatorUrl: null,
  });
};
`;

export const DOCS_PATH = '/api/docs';
/** where Strapi's documentation plugin serves its page */
const STRAPI_DOCS_PATH = '/documentation';

/** The OpenAPI document describes the schema: it is served where introspection is allowed. */
export const servesApiDocs = (config: FolioConfig): boolean => config.graphql.introspection ?? config.env !== 'production';

export const createDocsRoutes = (document: () => unknown) => {
  // the package's folder, found without loading its index (which loads Swagger UI's bundle: a fifth of a second at every start)
  const directory = dirname(require.resolve('swagger-ui-dist/package.json'));
  const files = new Map<string, Buffer>();
  const fileOf = async (name: string): Promise<Buffer> => {
    let content = files.get(name);
    if (!content) files.set(name, (content = await readFile(join(directory, name))));
    return content;
  };
  const send = (response: ServerResponse, type: string, body: Buffer | string) => {
    response.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'cache-control': 'public, max-age=3600' });
    response.end(body);
  };

  return async (request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean> => {
    const { pathname } = url;
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    if (pathname === '/api/openapi.json') {
      sendJson(response, 200, document());
      return true;
    }
    if (pathname === DOCS_PATH || pathname === STRAPI_DOCS_PATH) {
      response.writeHead(301, { location: `${DOCS_PATH}/` });
      response.end();
      return true;
    }
    if (!pathname.startsWith(`${DOCS_PATH}/`)) return false;
    const name = pathname.slice(DOCS_PATH.length + 1) || 'index.html';
    if (name === 'swagger-initializer.js') send(response, 'text/javascript; charset=utf-8', INITIALIZER);
    else if (Object.prototype.hasOwnProperty.call(ASSETS, name)) send(response, ASSETS[name], await fileOf(name));
    else return false;
    return true;
  };
};
