import { startTestServer, type TestServer } from '../support/test-server';

/** Client operations written against Strapi's schema validate against Folio's: variables typed as Strapi types them. */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  for (const name of ['red', 'green']) await server.gql('mutation($n: String!) { createTag(data: { name: $n }) { documentId } }', { n: name }, server.asAdmin);
});
afterAll(() => server.stop());

test('$or: [TagFiltersInput] (nullable items, as in Strapi); a null item adds no condition', async () => {
  const answer = await server.gql<{ tags: Array<{ name: string }> }>(
    'query($or: [TagFiltersInput]) { tags(filters: { or: $or }, sort: "name") { name } }',
    { or: [{ name: { eq: 'red' } }, null, { name: { eq: 'green' } }] },
    server.asAdmin,
  );
  expect(answer.body).toEqual({ data: { tags: [{ name: 'green' }, { name: 'red' }] } });
  const and = await server.gql<{ tags: Array<{ name: string }> }>('{ tags(filters: { and: [null, { name: { eq: "red" } }] }) { name } }', {}, server.asAdmin);
  expect(and.body).toEqual({ data: { tags: [{ name: 'red' }] } });
});
