import SwaggerParser from '@apidevtools/swagger-parser';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../support/test-server';

/** foodadvisor, a real public Strapi project (MIT), loads as it is and serves its content on both surfaces. */

// a copy of ../shared/fixtures/foodadvisor, unchanged (MIT: see its LICENSE)
const FOODADVISOR = join(__dirname, '..', 'fixtures', 'foodadvisor');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ schemaDir: FOODADVISOR, config: { plugins: {} } });
});
afterAll(() => server.stop());

test('an article with its CKEditor content (a custom field stored as rich text), written over REST, read over REST and GraphQL', async () => {
  const html = '<p>Best <strong>pasta</strong> in town</p>';
  const created = await fetch(`${server.url}/api/articles?status=published`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...server.asAdmin },
    body: JSON.stringify({ data: { title: 'Pasta', ckeditor_content: html } }),
  });
  expect(created.status).toBe(201);
  const { data } = (await created.json()) as { data: { documentId: string; ckeditor_content: string } };
  expect(data.ckeditor_content).toBe(html);

  const rest = (await (await fetch(`${server.url}/api/articles/${data.documentId}`, { headers: server.asAdmin })).json()) as { data: { ckeditor_content: string } };
  expect(rest.data.ckeditor_content).toBe(html);
  const graphql = await server.gql<{ article: { title: string; ckeditor_content: string } }>(
    'query($id: ID!) { article(documentId: $id) { title ckeditor_content } }',
    { id: data.documentId },
    server.asAdmin,
  );
  expect(graphql.body).toEqual({ data: { article: { title: 'Pasta', ckeditor_content: html } } });

  const missing = await fetch(`${server.url}/api/articles`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...server.asAdmin },
    body: JSON.stringify({ data: { title: 'No body' } }),
  });
  expect(missing.status).toBe(400);
});

test('a dynamic zone whose components share a field name with different types (theme: two enums) is populated, each entry under its own names', async () => {
  const blocks = [
    { __component: 'blocks.cta', theme: 'primary', title: 'Book a table' },
    { __component: 'blocks.faq', theme: 'muted', title: 'Questions' },
  ];
  const created = await fetch(`${server.url}/api/pages?status=published`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...server.asAdmin },
    body: JSON.stringify({ data: { title: 'Home', blocks } }),
  });
  expect(created.status).toBe(201);
  const list = (await (await fetch(`${server.url}/api/pages?populate=*`, { headers: server.asAdmin })).json()) as { data: Array<{ blocks: Array<Record<string, unknown>> }> };
  expect(list.data[0].blocks).toEqual([
    { __component: 'blocks.cta', id: expect.any(Number), theme: 'primary', title: 'Book a table', text: null },
    { __component: 'blocks.faq', id: expect.any(Number), title: 'Questions', theme: 'muted' },
  ]);
});

test("the user type carries the project's additions (job, picture), not its dangling inverse relation", async () => {
  const answer = await server.gql<{ __type: { fields: Array<{ name: string }> } }>('{ __type(name: "UsersPermissionsUser") { fields { name } } }', {}, server.asAdmin);
  const fields = answer.body.data!.__type.fields.map((field) => field.name);
  expect(fields).toEqual(expect.arrayContaining(['job', 'picture', 'reviews']));
  expect(fields).not.toContain('articles');
});

test("the OpenAPI document of a real project's models is valid (swagger-parser)", async () => {
  const document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as Record<string, unknown>;
  await expect(SwaggerParser.validate(document as never)).resolves.toBeDefined();
});
