import type { Attribute, ContentType, ScalarAttributeType } from '../models/types';

/**
 * Media files described as a content-type, so that filters and sort over them go through the same
 * translator as documents, and REST's file routes compile onto `uploadFiles_connection` like content
 * routes: its attributes are the filterable fields of `UploadFileFiltersInput` (`id` among them, which
 * REST filters by). Its collection is where every file record lives.
 */

const scalar = (type: ScalarAttributeType): Attribute => ({ type, localized: false });

export const FILE_CONTENT_TYPE: ContentType = {
  uid: 'plugin::upload.file',
  apiName: 'upload',
  kind: 'collectionType',
  collectionName: 'files',
  singularName: 'file',
  pluralName: 'files',
  displayName: 'File',
  draftAndPublish: false,
  localized: false,
  attributes: {
    id: scalar('integer'),
    name: scalar('string'),
    alternativeText: scalar('string'),
    caption: scalar('string'),
    focalPoint: scalar('json'),
    width: scalar('integer'),
    height: scalar('integer'),
    formats: scalar('json'),
    hash: scalar('string'),
    ext: scalar('string'),
    mime: scalar('string'),
    size: scalar('decimal'),
    url: scalar('string'),
    previewUrl: scalar('string'),
    provider: scalar('string'),
    provider_metadata: scalar('json'),
  },
  file: '<built-in upload plugin>',
};
