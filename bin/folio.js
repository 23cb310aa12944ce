#!/usr/bin/env -S node --max-semi-space-size=64
'use strict';
// --max-semi-space-size=64: a request's objects (rows, GraphQL results, the response) die young, but with
// 50 requests in flight V8's default 16 MB semi-spaces filled first, so they were copied and promoted. A REST
// page of 25 articles with their category, at 200,000 articles: GC 110 µs per request with 16 MB, 63 with 32,
// 47 with 64 (RSS 411 MB after the load), 35 with 128 (RSS 538 MB). `npm start`, the Docker image and the
// benchmark all start Folio through this line.
require('../dist/src/cli/run.js');
