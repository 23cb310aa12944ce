import { startTestServer, type TestServer } from '../support/test-server';

/** What was never written reads the same on both surfaces: an empty dynamic zone is `[]`. */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

test('an article without sections: [] over GraphQL and REST', async () => {
  const created = await server.gql<{ createArticle: { documentId: string; sections: unknown } }>('mutation { createArticle(data: { title: "Bare" }) { documentId sections { __typename } } }', {}, server.asAdmin);
  expect(created.body.data!.createArticle.sections).toEqual([]);
  const listed = await server.gql<{ articles: Array<{ sections: unknown }> }>('{ articles(status: DRAFT) { sections { __typename } } }', {}, server.asAdmin);
  expect(listed.body.data!.articles).toEqual([{ sections: [] }]);
  const rest = (await (await fetch(`${server.url}/api/articles/${created.body.data!.createArticle.documentId}?status=draft&populate=sections`, { headers: server.asAdmin })).json()) as { data: { sections: unknown } };
  expect(rest.data.sections).toEqual([]);
});
