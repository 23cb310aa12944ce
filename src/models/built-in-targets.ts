/**
 * Content-types that plugins provide rather than the schema folder; relations may target them even though no
 * schema.json declares them. Their side of a bidirectional relation lives in the plugin, so it is not checked.
 */
export const BUILT_IN_CONTENT_TYPE_UIDS = ['plugin::users-permissions.user', 'plugin::upload.file'] as const;

export type BuiltInContentTypeUid = (typeof BUILT_IN_CONTENT_TYPE_UIDS)[number];

export function isBuiltInContentTypeUid(uid: string): uid is BuiltInContentTypeUid {
  return (BUILT_IN_CONTENT_TYPE_UIDS as readonly string[]).includes(uid);
}
