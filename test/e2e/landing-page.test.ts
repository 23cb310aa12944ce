import { PRODUCTION_ENV, startTestServer } from '../support/test-server';

/** `GET /` outside production points at what the instance serves; production keeps Strapi's 404. */

test('outside production, / links to GraphiQL, the REST documentation and the health check, each of which answers', async () => {
  const server = await startTestServer();
  try {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    const links = [...html.matchAll(/href="([^"]+)"/g)].map(([, href]) => href);
    expect(links).toEqual(['/graphql', '/api/docs/', '/_health']);
    for (const link of links) {
      const target = await fetch(`${server.url}${link}`, { headers: { accept: 'text/html' } });
      expect([link, target.status]).toEqual([link, 200]);
    }
    const strapiPath = await fetch(`${server.url}/documentation`, { redirect: 'manual' });
    expect([strapiPath.status, strapiPath.headers.get('location')]).toEqual([301, '/api/docs/']);
    const post = await fetch(`${server.url}/`, { method: 'POST' });
    expect(post.status).toBe(404);
  } finally {
    await server.stop();
  }
});

test('in production, / is the 404 envelope', async () => {
  const server = await startTestServer({ env: PRODUCTION_ENV });
  try {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(404);
    expect(await page.json()).toMatchObject({ data: null, error: { status: 404, name: 'NotFoundError' } });
  } finally {
    await server.stop();
  }
});
