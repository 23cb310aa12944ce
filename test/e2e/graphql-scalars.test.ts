import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../support/test-server';

/** Every scalar attribute type round-trips through GraphQL, and its constraints are enforced. */

let schemaDir: string;
let server: TestServer;

const event = {
  kind: 'collectionType',
  collectionName: 'events',
  info: { singularName: 'event', pluralName: 'events', displayName: 'Event' },
  options: { draftAndPublish: false },
  attributes: {
    name: { type: 'string', required: true, minLength: 2, maxLength: 20 },
    notes: { type: 'text' },
    contact: { type: 'email' },
    code: { type: 'uid' },
    level: { type: 'enumeration', enum: ['low', 'high'], default: 'low' },
    seats: { type: 'integer', min: 1, max: 500 },
    attendees: { type: 'biginteger' },
    price: { type: 'decimal' },
    score: { type: 'float' },
    open: { type: 'boolean', default: true },
    day: { type: 'date' },
    doors: { type: 'time' },
    startsAt: { type: 'datetime' },
    stamp: { type: 'timestamp' },
    meta: { type: 'json' },
    secret: { type: 'string', private: true },
  },
};

beforeAll(async () => {
  schemaDir = mkdtempSync(join(tmpdir(), 'folio-scalars-'));
  mkdirSync(join(schemaDir, 'api/event/content-types/event'), { recursive: true });
  writeFileSync(join(schemaDir, 'api/event/content-types/event/schema.json'), JSON.stringify(event));
  server = await startTestServer({
    schemaDir,
    config: { plugins: { 'users-permissions': { config: { roles: { public: { permissions: ['api::event.event.find'] } } } } } },
  });
});

afterAll(async () => {
  await server.stop();
  rmSync(schemaDir, { recursive: true, force: true });
});

const FIELDS = 'name notes contact code level seats attendees price score open day doors startsAt stamp meta';

test('all scalar types round-trip; defaults apply; private attributes are write-only', async () => {
  const created = await server.gql<{ createEvent: Record<string, unknown> }>(
    `mutation($d: EventInput!) { createEvent(data: $d) { ${FIELDS} } }`,
    {
      d: {
        name: 'Launch',
        notes: 'long text',
        contact: 'a@b.co',
        code: 'launch-2026',
        seats: 120,
        attendees: '9007199254740993',
        price: 12.5,
        score: 0.25,
        day: '2026-11-22',
        doors: '18:30',
        startsAt: '2026-11-22T18:30:00.000Z',
        stamp: '2026-11-22T10:00:00Z',
        meta: { tags: ['a'], nested: { ok: true } },
        secret: 'hidden',
      },
    },
    server.asAdmin,
  );
  expect(created.body.errors).toBeUndefined();
  expect(created.body.data!.createEvent).toEqual({
    name: 'Launch',
    notes: 'long text',
    contact: 'a@b.co',
    code: 'launch-2026',
    level: 'low',
    seats: 120,
    attendees: '9007199254740993',
    price: 12.5,
    score: 0.25,
    open: true,
    day: '2026-11-22',
    doors: '18:30:00.000',
    startsAt: '2026-11-22T18:30:00.000Z',
    stamp: '2026-11-22T10:00:00.000Z',
    meta: { tags: ['a'], nested: { ok: true } },
  });
  const privateField = await server.gql('{ events { secret } }');
  expect(privateField.status).toBe(400);
  const privateFilter = await server.gql('{ events(filters: { secret: { eq: "hidden" } }) { name } }');
  expect(privateFilter.status).toBe(400);
  const privateSort = await server.gql('{ events(sort: "secret") { name } }');
  expect(privateSort.body.errors![0].extensions!.code).toBe('BAD_USER_INPUT');
});

test.each([
  ['too short', { name: 'x' }, 'name must be at least 2 characters'],
  ['too long', { name: 'x'.repeat(21) }, 'name must be at most 20 characters'],
  ['below min', { name: 'ok', seats: 0 }, 'seats must be greater than or equal to 1'],
  ['above max', { name: 'ok', seats: 501 }, 'seats must be less than or equal to 500'],
  ['bad email', { name: 'ok', contact: 'nope' }, 'contact must be a valid email'],
  ['bad uid', { name: 'ok', code: 'has spaces' }, 'code must match'],
])('constraint: %s', async (_name, data, message) => {
  const result = await server.gql('mutation($d: EventInput!) { createEvent(data: $d) { name } }', { d: data }, server.asAdmin);
  expect(result.body.errors![0].extensions!.code).toBe('BAD_USER_INPUT');
  expect(result.body.errors![0].message).toContain(message);
});

test('filters compare dates and times by value', async () => {
  const after = await server.gql<{ events: Array<{ name: string }> }>('{ events(filters: { startsAt: { gt: "2026-11-22T00:00:00Z" }, day: { lte: "2026-11-22" }, doors: { gte: "18:00" } }) { name } }');
  expect(after.body).toEqual({ data: { events: [{ name: 'Launch' }] } });
});
