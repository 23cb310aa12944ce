import type { GraphiQLOptions } from 'graphql-yoga';
import { escapeHtml } from '../../common/escape-html';

/**
 * GraphiQL without a CDN: yoga's default page loads its bundle, styles and editor workers from unpkg, so
 * offline it stays at "Loading…". Here the page references only Folio's own paths, served from the
 * `@graphql-yoga/render-graphiql` package installed with Folio (the same bundle yoga's page fetches), and
 * boots from script files rather than inline scripts, so its policy needs no 'unsafe-inline' for scripts.
 */

/** Where the HTTP front serves the page's files. */
export const GRAPHIQL_ASSETS_PATH = '/_graphiql/';

export interface GraphiqlAsset {
  contentType: string;
  body: Buffer;
  etag: string;
}

/** What `@graphql-yoga/render-graphiql/graphiql` exports (its subpath has no types under node10 resolution). */
interface GraphiqlBundle {
  js: string;
  css: string;
  favicon: string;
  editorWorkerService: string;
  jsonWorker: string;
  graphqlWorker: string;
}

const JS = 'text/javascript; charset=utf-8';

/** Monaco asks for its workers by label; the files are the bundle's own. */
const SETUP = `self.MonacoEnvironment = {
  globalAPI: false,
  getWorkerUrl: function (moduleId, label) {
    var files = { editorWorkerService: 'editor.worker.js', json: 'json.worker.js', graphql: 'graphql.worker.js' };
    return '${GRAPHIQL_ASSETS_PATH}' + (files[label] || files.editorWorkerService);
  },
};
`;
const START = `YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), JSON.parse(document.getElementById('graphiql-options').textContent));
`;

const dataUriBytes = (uri: string): Buffer => Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64');

/** The files, read once on the first request for one (9 MB of text a server with GraphiQL off never loads). */
const loadAssets = (): Map<string, GraphiqlAsset> => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const bundle = require('@graphql-yoga/render-graphiql/graphiql') as GraphiqlBundle;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { version } = require('@graphql-yoga/render-graphiql/package.json') as { version: string };
  const files: Array<[string, string, Buffer]> = [
    ['setup.js', JS, Buffer.from(SETUP)],
    ['start.js', JS, Buffer.from(START)],
    ['yoga-graphiql.js', JS, Buffer.from(bundle.js)],
    ['graphiql.css', 'text/css; charset=utf-8', Buffer.from(bundle.css)],
    ['editor.worker.js', JS, Buffer.from(bundle.editorWorkerService)],
    ['json.worker.js', JS, Buffer.from(bundle.jsonWorker)],
    ['graphql.worker.js', JS, Buffer.from(bundle.graphqlWorker)],
    ['favicon.ico', 'image/x-icon', dataUriBytes(bundle.favicon)],
  ];
  return new Map(files.map(([name, contentType, body]) => [name, { contentType, body, etag: `"graphiql-${version}-${name}"` }]));
};

let assets: Map<string, GraphiqlAsset> | undefined;

/** A file of the page by name (`yoga-graphiql.js`), or undefined. */
export const graphiqlAsset = (name: string): GraphiqlAsset | undefined => (assets ??= loadAssets()).get(name);

/** What Folio's page starts with; the user's `graphql.config.yoga.graphiql` options come on top. */
export const GRAPHIQL_DEFAULTS: GraphiQLOptions = {
  title: 'Folio GraphiQL',
  // the headers tab open, and kept across reloads: where an API token or a user's JWT goes
  isHeadersEditorEnabled: true,
  defaultEditorToolsVisibility: 'headers',
  shouldPersistHeaders: true,
  defaultQuery: `# For more than public content, put an API token
# or a user's JWT in Headers below:
# { "Authorization": "Bearer <token>" }
query {
  __typename
}
`,
};


/** yoga's `renderGraphiQL`: the page, with its options as JSON data (`<` escaped, so no text in them ends the script element). */
export const renderOfflineGraphiql = (options: GraphiQLOptions): string => {
  const settings = JSON.stringify({ ...GRAPHIQL_DEFAULTS, ...options }).replace(/</g, '\\u003c');
  const asset = (name: string) => `${GRAPHIQL_ASSETS_PATH}${name}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(options.title ?? GRAPHIQL_DEFAULTS.title ?? '')}</title>
<link rel="icon" href="${asset('favicon.ico')}">
<link rel="stylesheet" href="${asset('graphiql.css')}">
</head>
<body id="body" class="no-focus-outline">
<noscript>You need to enable JavaScript to run GraphiQL.</noscript>
<div id="root">Loading GraphiQL…</div>
<script type="application/json" id="graphiql-options">${settings}</script>
<script src="${asset('setup.js')}"></script>
<script src="${asset('yoga-graphiql.js')}"></script>
<script src="${asset('start.js')}"></script>
</body>
</html>
`;
};
