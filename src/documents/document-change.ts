import type { ContentType } from '../models/types';
import type { StoredDocument } from '../storage/types';

/** What a write changed, reported inside the write's transaction so that what records it commits with it. */
export interface DocumentChange {
  action: 'create' | 'update' | 'delete' | 'publish';
  contentType: ContentType;
  row: StoredDocument;
}

export type ChangeRecorder = (change: DocumentChange) => Promise<void>;
