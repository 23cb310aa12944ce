import type { FolioConfig } from '../config/types';
import { servesGraphiql } from '../graphql/create-graphql-server';
import type { HttpRoute } from './folio-module';
import { DOCS_PATH, servesApiDocs } from './content-routes/docs-routes';
import { escapeHtml } from '../common/escape-html';

/**
 * `GET /` outside production: a small page pointing at what this instance serves (GraphiQL, the REST
 * API's documentation, the health check), instead of a bare 404. Production keeps the 404: the page
 * would tell anyone where to look. Made once at start: the links depend on the config only.
 */


const pageOf = (links: ReadonlyArray<{ href: string; label: string; note: string }>) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Folio</title>
<style>body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; } li { margin: .5rem 0; } small { color: #555; }</style>
</head>
<body>
<h1>Folio</h1>
<p>This content API is running (not in production: this page is not served there).</p>
<ul>
${links.map(({ href, label, note }) => `<li><a href="${escapeHtml(href)}">${escapeHtml(label)}</a> <small>${escapeHtml(note)}</small></li>`).join('\n')}
</ul>
</body>
</html>
`;

export const createLandingPage = (config: FolioConfig): HttpRoute | undefined => {
  if (config.env === 'production') return undefined;
  const { enabled, endpoint } = config.graphql;
  const links = [
    ...(enabled && servesGraphiql(config) ? [{ href: endpoint, label: 'GraphiQL', note: `GraphQL at ${endpoint}` }] : []),
    ...(servesApiDocs(config) ? [{ href: `${DOCS_PATH}/`, label: 'REST API documentation', note: 'Swagger UI; the OpenAPI document is /api/openapi.json' }] : []),
    { href: '/_health', label: 'Health check', note: 'the store is up: 200, down: 503' },
  ];
  const body = pageOf(links);
  return (request, response, url) => {
    if (url.pathname !== '/' || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    response.end(request.method === 'HEAD' ? undefined : body);
    return true;
  };
};
