import type { Extension } from '../extensions/types';
import type { FolioContext, Services } from '../context';
import { SHARED_NAMES as N } from '../sdl/naming';
import { authDirective } from '../sdl/sdl-builder';
import { notFoundError } from '../errors/graphql-errors';
import { parsePagination } from '../query/parse-pagination';
import { parseSort } from '../query/parse-sort';
import { checkFileInfo } from './file-info';
import { createFileFilterTranslator } from './file-query';
import { FILE_CONTENT_TYPE } from './file-model';
import { parseFileId, type FileService } from './file-service';
import { UPLOAD_PERMISSIONS as P } from './upload-permissions';

/**
 * The media library on GraphQL, as Strapi has it: `uploadFile`, `uploadFiles`,
 * `uploadFiles_connection`, and the two mutations on numeric ids. There is no upload mutation
 * (uploads are REST only). `status`, `hasPublishedVersion` and `publicationFilter` are accepted as in
 * Strapi's schema; files have no draft & publish, so, as in Strapi, they change nothing.
 */

type Args = Record<string, unknown>;

/** the root fields REST's `GET /api/upload/files[/:id]` compile onto */
export const LIST_FIELD = 'uploadFiles_connection';
export const ONE_FIELD = 'uploadFile';

const readArgs = `status: ${N.publicationStatus} = PUBLISHED, hasPublishedVersion: Boolean, publicationFilter: ${N.publicationFilter}`;
const listArgs = `filters: ${N.uploadFileFilters}, pagination: ${N.paginationArg} = {}, sort: [String] = [], ${readArgs}`;

const TYPE_DEFS = `
type UploadFileEntityResponseCollection {
  nodes: [${N.uploadFile}!]!
  pageInfo: ${N.pagination}!
}

type Query {
  ${ONE_FIELD}(documentId: ID!, ${readArgs}): ${N.uploadFile} ${authDirective([P.findOne])}
  ${LIST_FIELD}(${listArgs}): UploadFileEntityResponseCollection ${authDirective([P.find])}
  uploadFiles(${listArgs}): [${N.uploadFile}]! ${authDirective([P.find])}
}

type Mutation {
  updateUploadFile(id: ID!, info: ${N.fileInfoInput}): ${N.uploadFile}! ${authDirective([P.upload])}
  deleteUploadFile(id: ID!): ${N.uploadFile} ${authDirective([P.destroy])}
}
`;

export const createUploadSchema = ({ models, config }: Services, files: FileService): Extension => {
  const translateFilters = createFileFilterTranslator(models, config.graphql.maxFilterStringLength);

  const find = async (args: Args, context: FolioContext) => {
    const page = parsePagination(args.pagination as Args | undefined, context.pageLimits);
    const filter = await translateFilters(args.filters);
    const rows = await files.find({ filter, sort: parseSort(FILE_CONTENT_TYPE.attributes, args.sort), skip: page.skip, limit: page.limit });
    return { rows, filter, page };
  };

  const existing = async (id: unknown) => {
    const fileId = parseFileId(id);
    return fileId === null ? null : files.findById(fileId);
  };

  return {
    typeDefs: TYPE_DEFS,
    resolvers: {
      Query: {
        uploadFile: (_: unknown, args: Args) => files.findOne({ documentId: args.documentId as string }),
        uploadFiles: async (_: unknown, args: Args, context: FolioContext) => (await find(args, context)).rows,
        uploadFiles_connection: async (_: unknown, args: Args, context: FolioContext) => {
          const { rows, filter, page } = await find(args, context);
          return {
            nodes: rows,
            // Counting costs a query: only done when pageInfo is selected.
            pageInfo: async () => {
              const total = await files.count(filter);
              return {
                page: page.mode === 'page' ? page.page : Math.floor(page.skip / page.limit) + 1,
                pageSize: page.limit,
                pageCount: Math.ceil(total / page.limit),
                total,
              };
            },
          };
        },
      },
      Mutation: {
        updateUploadFile: async (_: unknown, args: Args) => {
          const row = await existing(args.id);
          if (!row) throw notFoundError('File not found', { id: args.id });
          return files.updateInfo(row, args.info ? checkFileInfo(args.info, ['info']) : {});
        },
        // Strapi answers null, without an error, for a file that does not exist.
        deleteUploadFile: async (_: unknown, args: Args) => {
          const row = await existing(args.id);
          if (row) await files.remove(row);
          return row;
        },
      },
      UploadFileEntityResponseCollection: { pageInfo: (parent: { pageInfo: () => Promise<unknown> }) => parent.pageInfo() },
    },
  };
};
