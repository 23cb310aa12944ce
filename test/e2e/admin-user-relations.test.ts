import { resolve } from 'node:path';
import { startTestServer, type TestServer } from '../support/test-server';
import { stderrDuring } from '../support/stderr-lines';

/**
 * Relations to admin users (test/fixtures/admin-user-relation: a ticket's `assignedTo` and `watchers`, its
 * review component's `reviewedBy`, all `"target": "admin::user"`) are kept off the content API as Strapi
 * keeps them: no GraphQL field, input or filter (Shadow CRUD is off for admin types), and over REST never
 * answered, a populate naming them answered without them (Strapi sanitizes it away), a body, filter or sort
 * naming them a 400 (Strapi's validation refuses them to every users-permissions caller).
 */

type Json = Record<string, unknown>;

let server: TestServer;
let startLines: string[];
let ticket: Json;

const request = async (method: string, path: string, body?: Json): Promise<{ status: number; body: Json }> => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...server.asAdmin },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
};

beforeAll(async () => {
  const started = await stderrDuring(() => startTestServer({ schemaDir: resolve(__dirname, '../fixtures/admin-user-relation'), config: { plugins: { email: { enabled: false } } } }));
  server = started.result;
  startLines = started.written;
  const created = await request('POST', '/api/tickets', { data: { visitorName: 'Ada', status: 'pending', review: { note: 'fine' } } });
  expect(created.status).toBe(201);
  ticket = created.body.data as Json;
});
afterAll(async () => {
  await server?.stop();
});

test('starts, and says nothing: this is how Strapi serves them', () => {
  expect(startLines.filter((line) => line.includes('folio:'))).toEqual([]);
});

test('GraphQL has no field, input or filter for them', async () => {
  const { body } = await server.gql<Record<string, { fields?: Array<{ name: string }>; inputFields?: Array<{ name: string }> }>>(
    `{ ticket: __type(name: "Ticket") { fields { name } } input: __type(name: "TicketInput") { inputFields { name } }
       filters: __type(name: "TicketFiltersInput") { inputFields { name } } review: __type(name: "ComponentSharedReview") { fields { name } } }`,
  );
  const names = Object.values(body.data ?? {}).flatMap((type) => [...(type.fields ?? []), ...(type.inputFields ?? [])].map((field) => field.name));
  expect(names).toEqual(expect.arrayContaining(['visitorName', 'status', 'review', 'note']));
  expect(names.filter((name) => ['assignedTo', 'assignedTo_connection', 'watchers', 'watchers_connection', 'reviewedBy'].includes(name))).toEqual([]);
  const asked = await server.gql('{ tickets { assignedTo { id } } }', {}, server.asAdmin);
  expect(asked.status).toBe(400);
});

test.each(['populate=*', 'populate=assignedTo,watchers', 'populate[0]=assignedTo', 'populate[assignedTo][fields][0]=firstname', 'populate[review][populate]=reviewedBy', 'populate=review.reviewedBy'])(
  'REST %s answers the ticket without them',
  async (query) => {
    const { status, body } = await request('GET', `/api/tickets/${ticket.documentId}?${query}`);
    expect(status).toBe(200);
    const data = body.data as Json;
    expect(data).toMatchObject({ visitorName: 'Ada' });
    expect(Object.keys(data).filter((key) => ['assignedTo', 'watchers'].includes(key))).toEqual([]);
    if (data.review) expect(data.review).toEqual({ id: expect.any(Number), note: 'fine' });
  },
);

test('REST bodies, filters and sorts naming them are refused, and nothing is stored', async () => {
  for (const [method, path, body] of [
    ['POST', '/api/tickets', { data: { visitorName: 'Bo', assignedTo: 1 } }],
    ['PUT', `/api/tickets/${ticket.documentId}`, { data: { watchers: [1] } }],
    ['PUT', `/api/tickets/${ticket.documentId}`, { data: { review: { note: 'x', reviewedBy: 1 } } }],
  ] as const) {
    const answer = await request(method, path, body);
    expect({ path, status: answer.status, name: (answer.body.error as Json | undefined)?.name }).toEqual({ path, status: 400, name: 'ValidationError' });
  }
  for (const query of ['filters[assignedTo][id][$eq]=1', 'sort=assignedTo.id', 'fields[0]=assignedTo']) {
    expect({ query, status: (await request('GET', `/api/tickets?${query}`)).status }).toEqual({ query, status: 400 });
  }
  const all = await request('GET', '/api/tickets?populate=*');
  expect((all.body.data as Json[]).map((row) => [row.visitorName, row.review])).toEqual([['Ada', { id: expect.any(Number), note: 'fine' }]]);
});

test('the OpenAPI document does not name them', async () => {
  const { body } = await request('GET', '/api/openapi.json');
  expect(JSON.stringify(body)).not.toMatch(/assignedTo|watchers|reviewedBy/);
});
