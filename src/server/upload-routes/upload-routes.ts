import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestAuthorizer } from '../request-authorizer';
import type { Services } from '../../context';
import type { HttpRoute } from '../folio-module';
import { badUserInput, notFoundError } from '../../errors/graphql-errors';
import { storedNameOf, toUploadResponse, type FileRow } from '../../media/file-record';
import { parseFileInfo } from '../../media/file-info';
import { LIST_QUERY_PARAMETERS, parseQueryString, type ListQueryParameter } from '../../rest-compiler/parse-query-string';
import type { BareQuery, BareReadOutcome, BareReads } from '../content-routes/bare-reads';
import { errorEnvelope } from '../error-envelope';
import { parseFileId, type FileService } from '../../media/file-service';
import type { UploadProvider } from '../../media/upload-provider';
import { receiveForm, type ReceivedForm } from '../../media/receive-form';
import { sendUploadError, sendUploadResult } from './upload-responses';
import { UPLOAD_PERMISSIONS as P } from '../../media/upload-permissions';

/**
 * Strapi's upload routes under `/api/upload`, answering bare JSON as the official client expects:
 * upload (201, an array), update info or replace (`?id=`, 200), list, read, delete (200 with the
 * deleted record). The principal is checked before any byte of an upload is read.
 */

export interface UploadRoutesOptions {
  services: Services;
  files: FileService;
  provider: UploadProvider;
  callers: RequestAuthorizer;
  /** list and read, compiled onto `uploadFiles_connection` and `uploadFile` */
  reads: BareReads;
}

const FILE_QUERY_PARAMETERS: ReadonlySet<ListQueryParameter> = new Set(LIST_QUERY_PARAMETERS);
const FILE_PATH = /^\/api\/upload\/files\/([^/]+)$/;

export const createUploadApiRoute = ({ services, files, provider, reads, callers: { authorize } }: UploadRoutesOptions): HttpRoute => {
  const { config } = services;

  const fileOf = async (idText: string): Promise<FileRow> => {
    const id = parseFileId(idText);
    const row = id === null ? null : await files.findById(id);
    if (!row) throw notFoundError();
    return row;
  };

  const parseQuery = (url: URL): BareQuery => parseQueryString(url.search, FILE_QUERY_PARAMETERS, config.rest.strictQuery);

  /** A read's answer (each record with `isUrlSigned`), or the error its operation ended with (nothing found: 404). */
  const sendRead = <T>(request: IncomingMessage, response: ServerResponse, outcome: BareReadOutcome<T>, show: (found: T) => unknown) => {
    if ('failed' in outcome) return sendUploadResult(request, response, outcome.failed.status, errorEnvelope(outcome.failed));
    sendUploadResult(request, response, 200, show(outcome.found));
  };

  const update = async (target: FileRow, form: ReceivedForm): Promise<FileRow> => {
    if (form.files.length > 1) throw badUserInput('Cannot replace a file with multiple ones');
    if (form.files.length === 0 && form.fileInfo.length === 0) throw badUserInput('Missing fileInfo or files to update the file with');
    const [info = {}] = parseFileInfo(form.fileInfo, 1);
    return form.files.length === 1 ? files.replace(target, form.files[0], info) : files.updateInfo(target, info);
  };

  const create = async (form: ReceivedForm): Promise<FileRow[]> => {
    if (form.files.length === 0) throw badUserInput('Files are empty');
    return files.create(form.files, parseFileInfo(form.fileInfo, form.files.length));
  };

  const upload = async (request: IncomingMessage, response: ServerResponse, url: URL) => {
    const ids = url.searchParams.getAll('id').filter((id) => id !== '');
    if (ids.length > 1) throw badUserInput('File id is required and must be a single value');
    await authorize(request, P.upload);
    const target = ids.length === 1 ? await fileOf(ids[0]) : undefined;
    const form = await receiveForm(request, { provider, sizeLimit: config.upload.sizeLimit, allowedTypes: config.upload.allowedTypes });
    try {
      if (target) sendUploadResult(request, response, 200, toUploadResponse(await update(target, form)));
      else sendUploadResult(request, response, 201, (await create(form)).map(toUploadResponse));
    } catch (error) {
      // Files a rejected request wrote must not outlive it (a replacement already moved is the record's file now).
      await Promise.all(form.files.map((file) => provider.remove(storedNameOf(file))));
      throw error;
    }
  };

  const handle = async (request: IncomingMessage, response: ServerResponse, work: () => Promise<void>): Promise<true> => {
    try {
      await work();
    } catch (error) {
      sendUploadError(request, response, error);
    }
    return true;
  };

  return (request, response, url) => {
    const { pathname } = url;
    const method = request.method ?? 'GET';
    if (pathname === '/api/upload' && method === 'POST') return handle(request, response, () => upload(request, response, url));
    if (pathname === '/api/upload/files' && method === 'GET') {
      return handle(request, response, async () => sendRead(request, response, await reads.find(request, url, parseQuery(url)), (rows) => rows.map(toUploadResponse)));
    }
    const match = FILE_PATH.exec(pathname);
    if (match && method === 'GET') {
      return handle(request, response, async () => {
        const query = parseQuery(url);
        const id = parseFileId(match[1]);
        const row = id === null ? null : await files.findById(id);
        sendRead(request, response, await reads.findOne(request, url, row?.documentId, query), toUploadResponse);
      });
    }
    if (match && method === 'DELETE') {
      return handle(request, response, async () => {
        await authorize(request, P.destroy);
        const row = await fileOf(match[1]);
        await files.remove(row);
        sendUploadResult(request, response, 200, toUploadResponse(row));
      });
    }
    return false;
  };
};
