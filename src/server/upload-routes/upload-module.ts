import { createRequestAuthorizer } from '../request-authorizer';
import type { FolioModule } from '../folio-module';
import type { Services } from '../../context';
import { FILES_COLLECTION } from '../../media/file-record';
import { createFileService } from '../../media/file-service';
import { createImageFormatter } from '../../media/image-formats';
import { createUploadProvider } from '../../media/upload-provider';
import { createServeUploadsRoute } from './serve-uploads';
import { createUploadApiRoute } from './upload-routes';
import { createUploadSchema, LIST_FIELD, ONE_FIELD } from '../../media/upload-schema';
import { createBareReads } from '../content-routes/bare-reads';
import { FILE_CONTENT_TYPE } from '../../media/file-model';
import { sweepUploads } from '../../media/sweep-uploads';

/**
 * The media library: files (and the formats made of images) kept by the configured provider (a folder under the data
 * directory, or GridFS on MongoDB),
 * Strapi's `/api/upload` routes, `/uploads/*`, and the upload-file queries and mutations on GraphQL.
 */
export const createUploadModule = (services: Services): FolioModule => {
  const { config, store, dataDir } = services;
  const provider = createUploadProvider(config.upload, store, dataDir);
  const files = createFileService(store, provider, createImageFormatter(provider, config.upload.breakpoints));
  return {
    name: 'upload',
    extension: createUploadSchema(services, files),
    async start() {
      await provider.start();
      const collection = store.collection(FILES_COLLECTION);
      await collection.createIndex({ keys: [['id', 1]], unique: true });
      await collection.createIndex({ keys: [['documentId', 1]], unique: true });
      // `/uploads/*` finds its record by URL on every request.
      await collection.createIndex({ keys: [['url', 1]], unique: true });
      // A format's file is found through its original's hash (see formatOwnersFilter), when served and when swept.
      await collection.createIndex({ keys: [['hash', 1]] });
      const swept = await sweepUploads(provider, collection);
      if (swept.length > 0) process.stderr.write(`upload: removed ${swept.length} file(s) left by an interrupted upload\n`);
    },
    stop: () => provider.stop(),
    routes({ authenticator, schema, rest }) {
      const reads = createBareReads(schema, rest, { contentType: FILE_CONTENT_TYPE, listField: LIST_FIELD, oneField: ONE_FIELD, maxLimit: config.rest.maxLimit });
      return [createServeUploadsRoute(files, provider), createUploadApiRoute({ services, files, provider, reads, callers: createRequestAuthorizer(authenticator) })];
    },
  };
};
