import { readdirSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { defaultPlugins, FULL_ACCESS_TOKEN, startTestServer, type ConfigFiles, type TestServer } from '../support/test-server';

/** A test server set up for the media library: tokens per permission, and helpers to upload and inspect. */

export const READ_ONLY_TOKEN = 'test-read-only-token-0123456789abcdef';
export const UPLOAD_ONLY_TOKEN = 'test-upload-only-token-0123456789abcd';

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * Public may list files (as in Strapi's exchange 86) but not read one, upload or delete. Files in the local
 * folder, on either engine, so that tests can look at them there (test/mongodb/gridfs-uploads covers GridFS).
 */
export const uploadTestConfig = (uploadConfig: Record<string, unknown> = {}): ConfigFiles => ({
  plugins: {
    ...defaultPlugins(),
    'users-permissions': {
      config: {
        roles: {
          public: {
            permissions: [
              'api::article.article.find',
              'api::article.article.findOne',
              'api::author.author.find',
              'plugin::upload.content-api.find',
            ],
          },
        },
      },
    },
    upload: { config: { provider: 'local', ...uploadConfig } },
  },
  admin: {
    apiTokens: [
      { name: 'test-admin', type: 'full-access', accessKey: FULL_ACCESS_TOKEN },
      { name: 'reader', type: 'read-only', accessKey: READ_ONLY_TOKEN },
      { name: 'uploader', type: 'custom', accessKey: UPLOAD_ONLY_TOKEN, permissions: ['plugin::upload.content-api.upload'] },
    ],
  },
});

export const startUploadServer = (uploadConfig: Record<string, unknown> = {}) => startTestServer({ config: uploadTestConfig(uploadConfig) });

export interface FileToSend {
  name: string;
  content: Buffer | string;
  type?: string;
}

export const formOf = (files: FileToSend[], fileInfo?: unknown): FormData => {
  const form = new FormData();
  for (const file of files) form.append('files', new Blob([typeof file.content === 'string' ? file.content : new Uint8Array(file.content)], { type: file.type ?? 'application/octet-stream' }), file.name);
  if (fileInfo !== undefined) form.append('fileInfo', typeof fileInfo === 'string' ? fileInfo : JSON.stringify(fileInfo));
  return form;
};

export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export const request = async <T = unknown>(server: TestServer, path: string, init: RequestInit = {}): Promise<JsonResponse<T>> => {
  const response = await fetch(`${server.url}${path}`, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as T };
};

export type FileRecord = Record<string, unknown> & { id: number; documentId: string; url: string; hash: string; ext: string };

export const upload = (server: TestServer, files: FileToSend[], fileInfo?: unknown, headers: Record<string, string> = server.asAdmin) =>
  request<FileRecord[]>(server, '/api/upload', { method: 'POST', body: formOf(files, fileInfo), headers });

/** Uploads and expects success: the created records. */
export const uploaded = async (server: TestServer, files: FileToSend[], fileInfo?: unknown): Promise<FileRecord[]> => {
  const response = await upload(server, files, fileInfo);
  expect(response.status).toBe(201);
  return response.body;
};

export const uploadDirOf = (server: TestServer, directory = 'uploads') => join(server.folio.services.dataDir, directory);
export const storedFiles = (server: TestServer, directory?: string): string[] => readdirSync(uploadDirOf(server, directory)).sort();
export const fileRecordCount = (server: TestServer) => server.folio.services.store.collection('files').countDocuments({});

import { eventually } from '../support/eventually';

export { eventually };

export interface UploadState {
  files: string[];
  records: number;
}

const uploadStateOf = async (server: TestServer): Promise<UploadState> => ({ files: storedFiles(server), records: await fileRecordCount(server) });

/** The upload directory and files collection once no request is writing (no temporary `.part` file). */
export const settledUploadState = async (server: TestServer): Promise<UploadState> => {
  let state = await uploadStateOf(server);
  await eventually(async () => {
    state = await uploadStateOf(server);
    return !state.files.some((name) => name.endsWith('.part'));
  }).catch(() => {
    throw new Error(`a temporary file outlived its request: ${JSON.stringify(state)}`);
  });
  return state;
};

/** Waits until the upload directory and files collection are exactly `before` again; says what differs if they never are. */
export const expectUploadState = async (server: TestServer, before: UploadState): Promise<void> => {
  let now = await uploadStateOf(server);
  await eventually(async () => {
    now = await uploadStateOf(server);
    return isDeepStrictEqual(now, before);
  }).catch(() => {
    throw new Error(`upload state not restored: before ${JSON.stringify(before)}, now ${JSON.stringify(now)}`);
  });
};

export const FORBIDDEN = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } };
export const NOT_FOUND = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };
