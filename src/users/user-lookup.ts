import type { DocumentService } from '../documents/document-service';
import type { Filter, StoredDocument } from '../storage/types';
import { USER_CONTENT_TYPE } from './users-content-types';

/** The first user matching `filter`, private attributes included, read in the users' one scope (so on its indexes). */
export const createUserLookup =
  (documents: DocumentService) =>
  async (filter: Filter): Promise<StoredDocument | undefined> =>
    (await documents.findMany(USER_CONTENT_TYPE, { status: 'published' }, { filter, limit: 1 }))[0];
