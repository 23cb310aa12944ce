import type { Attribute, ContentType, Models } from '../models/types';
import type { DocumentChange } from '../documents/document-change';
import type { StoredDocument, StoredValue } from '../storage/types';
import type { WebhookEvent } from '../config/types';

/**
 * The webhook payload of a change, in Strapi's shape: `{ event, createdAt, model, uid, entry }`. The
 * entry leaves out what the read surfaces never show (internal `_` fields, private and password
 * attributes, in components too) and relations, which a write does not populate (as in Strapi).
 */

export interface ContentEvent {
  event: WebhookEvent;
  /** the content-type's uid, `api::article.article` */
  uid: string;
  /** its singular name, Strapi's `model` */
  model: string;
  entry: StoredDocument;
}

const EVENT_OF_ACTION: Record<DocumentChange['action'], WebhookEvent> = {
  create: 'entry.create',
  update: 'entry.update',
  delete: 'entry.delete',
  publish: 'entry.publish',
};

type AttributeMap = Record<string, Attribute>;

const SYSTEM_FIELDS = ['id', 'documentId', 'locale', 'createdAt', 'updatedAt', 'publishedAt'];

/** Whether an event's entry carries the attribute (a component's, its own shown attributes). */
export const shownInEntry = (attribute: Attribute | undefined): attribute is Attribute =>
  attribute !== undefined && attribute.private !== true && attribute.type !== 'password' && attribute.type !== 'relation' && attribute.type !== 'media';

export const createEventPayloads = (models: Models) => {
  const componentAttributes = (uid: unknown): AttributeMap | undefined => (typeof uid === 'string' ? models.components.get(uid)?.attributes : undefined);

  const sanitizeComponent = (value: StoredValue, attributes: AttributeMap | undefined): StoredValue => {
    if (Array.isArray(value)) return value.map((item) => sanitizeComponent(item, attributes));
    if (value === null || typeof value !== 'object') return value;
    const own = attributes ?? componentAttributes(value.__component) ?? {};
    return sanitize(value, own, ['id', '__component']);
  };

  const sanitize = (row: StoredDocument, attributes: AttributeMap, keep: string[]): StoredDocument => {
    const entry: StoredDocument = {};
    for (const [name, value] of Object.entries(row)) {
      if (keep.includes(name)) {
        entry[name] = value;
        continue;
      }
      const attribute = attributes[name];
      if (!shownInEntry(attribute)) continue;
      if (attribute.type === 'component') entry[name] = sanitizeComponent(value, componentAttributes(attribute.component));
      else if (attribute.type === 'dynamiczone') entry[name] = sanitizeComponent(value, undefined);
      else entry[name] = value;
    }
    return entry;
  };

  return (change: DocumentChange): ContentEvent => ({
    event: EVENT_OF_ACTION[change.action],
    uid: change.contentType.uid,
    model: change.contentType.singularName,
    entry: sanitize(change.row, change.contentType.attributes, SYSTEM_FIELDS),
  });
};

/** Content-types whose changes are events: the project's own and users, not Folio's bookkeeping (roles seeded at every start). */
export const emitsEvents = (contentType: ContentType): boolean =>
  contentType.uid.startsWith('api::') || contentType.uid === 'plugin::users-permissions.user';
