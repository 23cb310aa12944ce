'use strict';
// The baseline: the fastest a Node.js HTTP server answers a small fixed JSON body on this machine.
const { createServer } = require('node:http');

const body = JSON.stringify({ data: { articles: [{ documentId: 'abc', title: 'Hello' }] } });
const server = createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`));
