import { startTestServer, type TestServer } from '../support/test-server';

/** The spec's own example filters on the numeric id: `filters[id][$in][0]=…`. */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

test('filters[id][$in] selects by numeric id', async () => {
  const ids: number[] = [];
  for (const name of ['one', 'two', 'three']) {
    const response = await fetch(`${server.url}/api/tags`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...server.asAdmin },
      body: JSON.stringify({ data: { name } }),
    });
    ids.push(((await response.json()) as { data: { id: number } }).data.id);
  }
  const response = await fetch(`${server.url}/api/tags?filters[id][$in][0]=${ids[0]}&filters[id][$in][1]=${ids[2]}&fields[0]=name`);
  const body = (await response.json()) as { data: Array<{ id: number; name: string }> };
  expect(response.status).toBe(200);
  expect(body.data.map((tag) => tag.name)).toEqual(['one', 'three']);
  const bad = await fetch(`${server.url}/api/tags?filters[id][$eq]=abc`);
  expect(bad.status).toBe(400);
});
