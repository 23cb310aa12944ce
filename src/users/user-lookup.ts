import type { DocumentService } from '../documents/document-service';
import type { ContentType } from '../models/types';
import type { Filter, StoredDocument } from '../storage/types';
import { USER_CONTENT_TYPE } from './users-content-types';

/**
 * The first user matching `filter`, private attributes included, read in the users' one scope (so on its
 * indexes). `userType`: the project's user type when its added attributes matter.
 */
export const createUserLookup =
  (documents: DocumentService, userType: ContentType = USER_CONTENT_TYPE) =>
  async (filter: Filter): Promise<StoredDocument | undefined> =>
    (await documents.findMany(userType, { status: 'published' }, { filter, limit: 1 }))[0];
