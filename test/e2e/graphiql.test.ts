import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { FULL_ACCESS_TOKEN, startTestServer, type TestServer } from '../support/test-server';

/**
 * GraphiQL works offline: every file its page loads is served by Folio from the installed package, and
 * in a real browser (Debian's chromium, no request let out of the machine) a query runs with an API token
 * set in its headers tab.
 */

const CHROMIUM = '/usr/bin/chromium';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const page = () => fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });

test('every script, stylesheet and worker the page references is served by Folio itself, cacheable', async () => {
  const response = await page();
  expect(response.status).toBe(200);
  const html = await response.text();
  const references = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
  expect(references).toHaveLength(5);
  const setup = await (await fetch(new URL('/_graphiql/setup.js', server.url))).text();
  const workers = [...setup.matchAll(/'([\w.]+\.worker\.js)'/g)].map((match) => `/_graphiql/${match[1]}`);
  expect(workers).toHaveLength(3);
  for (const reference of [...references, ...workers]) {
    const url = new URL(reference, server.url);
    expect(url.origin).toBe(server.url);
    const file = await fetch(url);
    expect([reference, file.status]).toEqual([reference, 200]);
    expect(file.headers.get('content-type')).toMatch(/^(text\/javascript|text\/css|image\/x-icon)/);
    expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(100);
    const again = await fetch(url, { headers: { 'if-none-match': file.headers.get('etag') ?? '' } });
    expect(again.status).toBe(304);
  }
  expect((await fetch(new URL('/_graphiql/nothing.js', server.url))).status).toBe(404);
});

const browserTest = existsSync(CHROMIUM) ? test : test.skip;
const skipReason = existsSync(CHROMIUM) ? '' : ` (skipped: ${CHROMIUM} is not installed; apt-get install -y chromium)`;

browserTest(`in a browser with no other origin reachable, a mutation runs with the API token typed into the headers tab${skipReason}`, async () => {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const tab = await browser.newPage();
    const elsewhere: string[] = [];
    const problems: string[] = [];
    tab.on('pageerror', (error) => problems.push(error.message));
    tab.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await tab.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(server.url) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    await tab.goto(`${server.url}/graphql`);
    const fill = async (editor: string, text: string) => {
      await tab.locator(`${editor} .monaco-editor`).filter({ visible: true }).click();
      await tab.keyboard.press('Control+A');
      await tab.keyboard.press('Delete');
      await tab.keyboard.insertText(text);
    };
    await fill('.graphiql-query-editor', 'mutation { createTag(data: { name: "from-graphiql" }) { name } }');
    await fill('.graphiql-editor-tool', JSON.stringify({ Authorization: `Bearer ${FULL_ACCESS_TOKEN}` }));
    await tab.locator('.graphiql-execute-button').click();
    await tab.locator('.graphiql-response').getByText('from-graphiql').waitFor({ timeout: 15000 });
    expect(await tab.locator('.graphiql-response').innerText()).not.toContain('Forbidden');
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
  } finally {
    await browser.close();
  }
  const { body } = await server.gql('{ tags { name } }');
  expect(body.data).toEqual({ tags: [{ name: 'from-graphiql' }] });
}, 60000);
