import { startTestServer, type TestServer } from '../support/test-server';
import { call } from '../auth/http';

/**
 * Component ids are the server's: a client's id on create is ignored (a new component), and on
 * update an id the document does not hold there is a 400, as Strapi refuses components "not
 * related to the entity". Before, `seo: { id: 3 }` stored another article's component id.
 */

interface Article {
  documentId: string;
  seo: { id: number; metaTitle: string } | null;
  sections: Array<{ id: number; __component: string; text?: string }>;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const write = (method: string, path: string, data: unknown) => call<{ data: Article; error?: { name: string; message: string } }>(server.url, method, `${path}?populate=*`, { body: { data }, headers: server.asAdmin });

test('create ignores a client id: the new component does not take another document\'s', async () => {
  const first = await write('POST', '/api/articles', { title: 'first', seo: { metaTitle: 'one' } });
  const victimId = first.body.data.seo!.id;
  const second = await write('POST', '/api/articles', { title: 'second', seo: { id: victimId, metaTitle: 'two' }, sections: [{ __component: 'shared.quote', id: victimId, text: 'q' }] });
  expect(second.status).toBe(201);
  expect(second.body.data.seo!.id).not.toBe(victimId);
  expect(second.body.data.sections[0].id).not.toBe(victimId);
  expect(second.body.data.sections[0].id).not.toBe(second.body.data.seo!.id);
});

test('update keeps the id of the document\'s own component, and refuses another document\'s', async () => {
  const mine = await write('POST', '/api/articles', { title: 'mine', seo: { metaTitle: 'a' }, sections: [{ __component: 'shared.quote', text: 'q1' }] });
  const other = await write('POST', '/api/articles', { title: 'other', seo: { metaTitle: 'b' } });
  const { documentId } = mine.body.data;
  const ownId = mine.body.data.seo!.id;

  const kept = await write('PUT', `/api/articles/${documentId}`, { seo: { id: ownId, metaTitle: 'a2' } });
  expect(kept.status).toBe(200);
  expect(kept.body.data.seo).toMatchObject({ id: ownId, metaTitle: 'a2' });

  const stolen = await write('PUT', `/api/articles/${documentId}`, { seo: { id: other.body.data.seo!.id, metaTitle: 'x' } });
  expect(stolen.status).toBe(400);
  expect(stolen.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError', message: expect.stringContaining('not related to the entity') } });

  // an id the document holds, but under another attribute
  const moved = await write('PUT', `/api/articles/${documentId}`, { sections: [{ __component: 'shared.quote', id: ownId, text: 'moved' }] });
  expect(moved.status).toBe(400);

  // the same own id twice in one write
  const sectionId = mine.body.data.sections[0].id;
  const twice = await write('PUT', `/api/articles/${documentId}`, { sections: [{ __component: 'shared.quote', id: sectionId, text: 'a' }, { __component: 'shared.quote', id: sectionId, text: 'b' }] });
  expect(twice.status).toBe(400);

  const after = await call<{ data: Article }>(server.url, 'GET', `/api/articles/${documentId}?status=draft&populate=*`, { headers: server.asAdmin });
  expect(after.body.data.seo).toMatchObject({ id: ownId, metaTitle: 'a2' });
  expect(after.body.data.sections).toEqual([expect.objectContaining({ id: sectionId, text: 'q1' })]);
});

test('GraphQL: the same rules', async () => {
  const victim = await write('POST', '/api/articles', { title: 'victim', seo: { metaTitle: 'v' } });
  const victimId = victim.body.data.seo!.id;
  const created = await server.gql<{ createArticle: { documentId: string; seo: { id: string } } }>(
    `mutation { createArticle(data: { title: "gql", seo: { id: ${victimId}, metaTitle: "g" } }) { documentId seo { id } } }`,
    undefined,
    server.asAdmin,
  );
  expect(created.body.data!.createArticle.seo.id).not.toBe(String(victimId));
  const updated = await server.gql(
    `mutation { updateArticle(documentId: "${created.body.data!.createArticle.documentId}", data: { seo: { id: ${victimId}, metaTitle: "x" } }) { documentId } }`,
    undefined,
    server.asAdmin,
  );
  expect(updated.body.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
  expect(updated.body.errors![0].message).toMatch(/not related to the entity/);
});
