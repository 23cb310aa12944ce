/** The upload plugin's content-API permissions, as roles and API tokens grant them. */
export const UPLOAD_PERMISSIONS = {
  find: 'plugin::upload.content-api.find',
  findOne: 'plugin::upload.content-api.findOne',
  upload: 'plugin::upload.content-api.upload',
  destroy: 'plugin::upload.content-api.destroy',
} as const;
