import type { HttpRoute } from './folio-module';
import { GRAPHIQL_ASSETS_PATH, graphiqlAsset } from '../graphql/graphiql/offline-graphiql';

/** The files of Folio's GraphiQL page (see offline-graphiql), cached by clients until the package changes. */
export const graphiqlAssetsRoute: HttpRoute = (request, response, url) => {
  if ((request.method !== 'GET' && request.method !== 'HEAD') || !url.pathname.startsWith(GRAPHIQL_ASSETS_PATH)) return false;
  const asset = graphiqlAsset(url.pathname.slice(GRAPHIQL_ASSETS_PATH.length));
  if (!asset) return false;
  const headers = { etag: asset.etag, 'cache-control': 'public, max-age=86400' };
  if (request.headers['if-none-match'] === asset.etag) {
    response.writeHead(304, headers);
    response.end();
    return true;
  }
  response.writeHead(200, { ...headers, 'content-type': asset.contentType, 'content-length': asset.body.length });
  response.end(request.method === 'HEAD' ? undefined : asset.body);
  return true;
};
