import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TestServer } from '../support/test-server';
import { png } from '../upload/images';
import { bearer, READ_ONLY_TOKEN, request, startUploadServer, uploadDirOf, uploaded, type FileRecord } from '../upload/upload-server';

let server: TestServer;
beforeAll(async () => {
  server = await startUploadServer();
});
afterAll(() => server.stop());

const admin = () => server.asAdmin;
const image = (name: string, width = 8, height = 8) => ({ name, content: png(width, height), type: 'image/png' });

const FORBIDDEN_CODE = { extensions: expect.objectContaining({ code: 'FORBIDDEN' }) };

describe('upload-file queries', () => {
  let files: FileRecord[];
  beforeAll(async () => {
    files = await uploaded(server, [image('q-b.png', 2, 2), image('q-a.png', 4, 4), { name: 'q-c.txt', content: 'text', type: 'text/plain' }], [{ alternativeText: 'bee' }]);
  });

  test('the publication arguments of Strapi\'s schema are accepted and, files having no draft & publish, change nothing', async () => {
    const list = '{ uploadFiles(filters: { name: { startsWith: "q-" } }, sort: "name") { name } }';
    const plain = await server.gql(list);
    for (const args of ['publicationFilter: NEVER_PUBLISHED', 'hasPublishedVersion: false', 'status: DRAFT, publicationFilter: MODIFIED']) {
      const answer = await server.gql(list.replace('sort: "name"', `sort: "name", ${args}`));
      expect(answer.body).toEqual(plain.body);
    }
    expect((plain.body.data as { uploadFiles: unknown[] }).uploadFiles).toHaveLength(3);
  });

  test('uploadFiles lists files with Strapi fields (exchange 127); Public may list', async () => {
    const { status, body } = await server.gql<{ uploadFiles: Array<Record<string, unknown>> }>(
      '{ uploadFiles(filters: { name: { startsWith: "q-" } }, sort: "name") { documentId name url mime size width height formats alternativeText } }',
    );
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data!.uploadFiles).toEqual(
      [files[1], files[0], files[2]].map((file) => ({
        documentId: file.documentId,
        name: file.name,
        url: file.url,
        mime: file.mime,
        size: file.size,
        width: file.width,
        height: file.height,
        formats: null,
        alternativeText: file.alternativeText,
      })),
    );
  });

  test('uploadFiles_connection pages and counts; uploadFile reads one by documentId', async () => {
    const { body } = await server.gql<{ uploadFiles_connection: { nodes: Array<{ name: string }>; pageInfo: Record<string, number> } }>(
      '{ uploadFiles_connection(filters: { mime: { eq: "image/png" }, name: { startsWith: "q-" } }, pagination: { page: 2, pageSize: 1 }, sort: "name:desc") { nodes { name } pageInfo { page pageSize pageCount total } } }',
    );
    expect(body.data!.uploadFiles_connection).toEqual({ nodes: [{ name: 'q-a.png' }], pageInfo: { page: 2, pageSize: 1, pageCount: 2, total: 2 } });

    const one = await server.gql<{ uploadFile: { name: string } | null }>('query($id: ID!) { uploadFile(documentId: $id) { name url } }', { id: files[0].documentId }, admin());
    expect(one.body.data!.uploadFile).toEqual({ name: 'q-b.png', url: files[0].url });
    const missing = await server.gql('query { uploadFile(documentId: "nope") { name } }', {}, admin());
    expect(missing.body).toEqual({ data: { uploadFile: null } });
  });

  test('uploadFile needs findOne: Public gets FORBIDDEN with HTTP 200', async () => {
    const { status, body } = await server.gql('query($id: ID!) { uploadFile(documentId: $id) { name } }', { id: files[0].documentId });
    expect(status).toBe(200);
    expect(body.errors).toEqual([expect.objectContaining(FORBIDDEN_CODE)]);
  });
});

describe('updateUploadFile / deleteUploadFile', () => {
  test('updateUploadFile(id, info) changes the metadata by numeric id', async () => {
    const [file] = await uploaded(server, [image('before.png')], { caption: 'kept' });
    const { body } = await server.gql<{ updateUploadFile: Record<string, unknown> }>(
      'mutation($id: ID!) { updateUploadFile(id: $id, info: { name: "../after.png", alternativeText: "new alt" }) { documentId name url alternativeText caption } }',
      { id: String(file.id) },
      admin(),
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.updateUploadFile).toEqual({ documentId: file.documentId, name: 'after.png', url: file.url, alternativeText: 'new alt', caption: 'kept' });
    const rest = await request<FileRecord>(server, `/api/upload/files/${file.id}`, { headers: admin() });
    expect(rest.body).toMatchObject({ name: 'after.png', alternativeText: 'new alt', caption: 'kept' });
  });

  test('updateUploadFile on an unknown id is NOT_FOUND', async () => {
    const { body } = await server.gql('mutation { updateUploadFile(id: 999999, info: { caption: "x" }) { documentId } }', {}, admin());
    expect(body.data).toBeNull();
    expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'NOT_FOUND' }) })]);
  });

  test('deleteUploadFile(id) removes the record and the stored file and returns the file; an unknown id gives null', async () => {
    const [file] = await uploaded(server, [image('gql-doomed.png')]);
    const { body } = await server.gql<{ deleteUploadFile: Record<string, unknown> }>(
      'mutation($id: ID!) { deleteUploadFile(id: $id) { documentId name } }',
      { id: String(file.id) },
      admin(),
    );
    expect(body.data!.deleteUploadFile).toEqual({ documentId: file.documentId, name: 'gql-doomed.png' });
    expect(existsSync(join(uploadDirOf(server), `${file.hash}${file.ext}`))).toBe(false);
    expect((await request(server, `/api/upload/files/${file.id}`, { headers: admin() })).status).toBe(404);
    const again = await server.gql('mutation($id: ID!) { deleteUploadFile(id: $id) { documentId } }', { id: String(file.id) }, admin());
    expect(again.body).toEqual({ data: { deleteUploadFile: null } });
  });

  test('without the upload plugin permissions the mutations are FORBIDDEN, and nothing changes', async () => {
    const [file] = await uploaded(server, [image('guarded.png')], { caption: 'original' });
    const update = 'mutation($id: ID!) { updateUploadFile(id: $id, info: { caption: "hacked" }) { caption } }';
    const remove = 'mutation($id: ID!) { deleteUploadFile(id: $id) { documentId } }';
    for (const headers of [{}, bearer(READ_ONLY_TOKEN)]) {
      for (const mutation of [update, remove]) {
        const { status, body } = await server.gql(mutation, { id: String(file.id) }, headers);
        expect(status).toBe(200);
        expect(body.errors).toEqual([expect.objectContaining(FORBIDDEN_CODE)]);
      }
    }
    expect((await request<FileRecord>(server, `/api/upload/files/${file.id}`, { headers: admin() })).body.caption).toBe('original');
  });

  test('there is no upload mutation on GraphQL', async () => {
    const { status, body } = await server.gql('mutation { upload(file: null) { id } }', {}, admin());
    expect(status).toBe(400);
    expect(body.errors?.[0].message).toMatch(/Cannot query field "upload"/);
  });
});

describe('media attributes', () => {
  let cover: FileRecord;
  let gallery: FileRecord[];
  beforeAll(async () => {
    [cover, ...gallery] = await uploaded(server, [image('cover.png', 40, 30), image('g1.png'), image('g2.png')], [{ alternativeText: 'the cover' }]);
  });

  test('GraphQL: set by numeric id on create and update; read back as UploadFile and <field>_connection', async () => {
    const created = await server.gql<{ createArticle: { documentId: string } }>(
      'mutation($cover: ID, $gallery: [ID]) { createArticle(data: { title: "With media", cover: $cover, gallery: $gallery }) { documentId } }',
      { cover: String(cover.id), gallery: gallery.map((file) => String(file.id)) },
      admin(),
    );
    expect(created.body.errors).toBeUndefined();
    const documentId = created.body.data!.createArticle.documentId;

    const read = async () =>
      (
        await server.gql<{ article: Record<string, unknown> }>(
          'query($id: ID!) { article(documentId: $id) { cover { documentId url alternativeText width height mime } gallery { documentId } gallery_connection { nodes { url } } } }',
          { id: documentId },
        )
      ).body.data!.article;
    expect(await read()).toEqual({
      cover: { documentId: cover.documentId, url: cover.url, alternativeText: 'the cover', width: 40, height: 30, mime: 'image/png' },
      gallery: gallery.map((file) => ({ documentId: file.documentId })),
      gallery_connection: { nodes: gallery.map((file) => ({ url: file.url })) },
    });

    const updated = await server.gql(
      'mutation($id: ID!, $gallery: [ID]) { updateArticle(documentId: $id, data: { cover: null, gallery: $gallery }) { documentId } }',
      { id: documentId, gallery: [String(gallery[1].id)] },
      admin(),
    );
    expect(updated.body.errors).toBeUndefined();
    expect(await read()).toMatchObject({ cover: null, gallery: [{ documentId: gallery[1].documentId }] });
  });

  test('GraphQL: an id that is no file is refused', async () => {
    const { body } = await server.gql('mutation { createArticle(data: { title: "Bad media", cover: 999999 }) { documentId } }', {}, admin());
    expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
  });

  test('a deleted file disappears from the documents that used it', async () => {
    const [avatar] = await uploaded(server, [image('avatar.png')]);
    const created = await server.gql<{ createAuthor: { documentId: string } }>(
      'mutation($avatar: ID) { createAuthor(data: { name: "Ann", avatar: $avatar }) { documentId avatar { url } } }',
      { avatar: String(avatar.id) },
      admin(),
    );
    expect(created.body.data!.createAuthor).toMatchObject({ avatar: { url: avatar.url } });
    await request(server, `/api/upload/files/${avatar.id}`, { method: 'DELETE', headers: admin() });
    const read = await server.gql<{ author: { avatar: unknown } }>('query($id: ID!) { author(documentId: $id) { avatar { url } } }', { id: created.body.data!.createAuthor.documentId }, admin());
    expect(read.body.data!.author.avatar).toBeNull();
  });

  test('REST: set by numeric id; populated as the file record (exchange 88: Strapi keys, no isUrlSigned)', async () => {
    const created = await request<{ data: { documentId: string } }>(server, '/api/articles', {
      method: 'POST',
      headers: { ...admin(), 'content-type': 'application/json' },
      body: JSON.stringify({ data: { title: 'REST media' } }),
    });
    expect(created.status).toBe(201);
    const put = await request<{ data: Record<string, unknown> }>(server, `/api/articles/${created.body.data.documentId}?populate[cover]=true&populate[gallery]=true`, {
      method: 'PUT',
      headers: { ...admin(), 'content-type': 'application/json' },
      body: JSON.stringify({ data: { cover: cover.id, gallery: [gallery[0].id] } }),
    });
    expect(put.status).toBe(200);
    // Populated media are the stored record: the upload routes' `isUrlSigned` is theirs alone.
    const asPopulated = ({ isUrlSigned, ...record }: FileRecord) => {
      expect(isUrlSigned).toBe(false);
      return record;
    };
    expect(put.body.data.cover).toEqual(asPopulated(cover));
    expect(Object.keys(put.body.data.cover as object)).toEqual(Object.keys(asPopulated(cover)));
    expect(put.body.data.gallery).toEqual([asPopulated(gallery[0])]);

    const unpopulated = await request<{ data: Record<string, unknown> }>(server, `/api/articles/${created.body.data.documentId}`);
    expect(unpopulated.body.data).not.toHaveProperty('cover');
  });
});
