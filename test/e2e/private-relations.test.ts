import { startTestServer, type TestServer } from '../support/test-server';
import { copyExampleSchema, type SchemaCopy } from '../support/schema-copy';

/** `private: true` on a relation or a media attribute: the server starts, and the attribute is absent from both surfaces. */

let schema: SchemaCopy;
let server: TestServer;
beforeAll(async () => {
  schema = copyExampleSchema();
  schema.editContentType('article', (article) => {
    article.attributes.category.private = true;
    article.attributes.cover.private = true;
  });
  server = await startTestServer({ schemaDir: schema.schemaDir });
});
afterAll(async () => {
  await server.stop();
  schema.remove();
});

test('a private relation and a private media field are not read, filtered, sorted or populated', async () => {
  const fields = await server.gql<{ __type: { fields: Array<{ name: string }> } }>('{ __type(name: "Article") { fields { name } } }', {}, server.asAdmin);
  const names = fields.body.data!.__type.fields.map((field) => field.name);
  expect(names).toContain('tags');
  expect(names).not.toContain('category');
  expect(names).not.toContain('cover');
  for (const path of ['/api/articles?populate=category', '/api/articles?populate=cover', '/api/articles?filters[category][name][$eq]=x', '/api/articles?sort=category.name']) {
    const answer = await fetch(`${server.url}${path}`, { headers: server.asAdmin });
    expect({ path, status: answer.status }).toEqual({ path, status: 400 });
  }
  const all = (await (await fetch(`${server.url}/api/articles?populate=*`, { headers: server.asAdmin })).json()) as { data: unknown[] };
  expect(Array.isArray(all.data)).toBe(true);
});
