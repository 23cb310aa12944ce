import { UPLOAD_PERMISSIONS } from '../media/upload-permissions';
import { CHANGE_PASSWORD_PERMISSION, ME_PERMISSION, ROLE_READ_PERMISSIONS, ROLE_WRITE_PERMISSIONS, USER_WRITE_PERMISSIONS } from '../users/roles';
import { errorResponses, json, ref, type OpenApiPaths, type OperationObject, type SchemaObject } from './openapi-shapes';
import { securityFor, type RolePermissions } from './route-security';

/**
 * The routes of the users-permissions, upload and i18n plugins, as Folio serves them: sign-up and
 * sign-in answer `{ jwt, user }`, the users and files routes bare JSON (no `{ data, meta }`, as in
 * Strapi), `GET /api/i18n/locales` a bare list.
 */

export interface PluginSchemas {
  user?: string;
  file?: string;
}

const USERS = 'plugin::users-permissions.user';
const LIST_LOCALES = 'plugin::i18n.locales.listLocales';

const body = (schema: SchemaObject, type = 'application/json') => ({ required: true, content: { [type]: { schema } } });
/** a JSON body of the named string fields, all required */
const stringsBody = (...names: string[]) => body({ type: 'object', required: names, properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])) });
const emailBody = body({ type: 'object', required: ['email'], properties: { email: { type: 'string', format: 'email' } } });
const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };
const ME_POPULATE = { name: 'populate', in: 'query', description: 'the role: `role`, `*`, `[role]` or `{ role: … }`', style: 'deepObject', explode: true, schema: { anyOf: [{ type: 'string' }, { type: 'object' }] } };
const listQuery = [ref('parameters', 'pagination'), ref('parameters', 'sort')];

const operation = (tag: string, id: string, fields: Omit<OperationObject, 'responses'>, responses: OperationObject['responses']): OperationObject => ({
  operationId: id,
  tags: [tag],
  ...fields,
  responses: { ...responses, ...errorResponses() },
});

const usersPaths = (user: string, roles: RolePermissions): OpenApiPaths => {
  const userRef = ref('schemas', user);
  const signedIn = json('Signed in', { type: 'object', required: ['jwt', 'user'], properties: { jwt: { type: 'string' }, user: userRef } });
  const tag = 'Users-Permissions';
  return {
    '/api/auth/local': {
      post: operation(
        tag,
        'login',
        { ...securityFor(undefined, roles, 'Sign in with a username or e-mail and a password.'), requestBody: stringsBody('identifier', 'password') },
        { 200: signedIn },
      ),
    },
    '/api/auth/local/register': {
      post: operation(
        tag,
        'register',
        {
          ...securityFor(undefined, roles, 'Sign up: the new user gets the Authenticated role.'),
          requestBody: body({ type: 'object', required: ['username', 'email', 'password'], properties: { username: { type: 'string' }, email: { type: 'string', format: 'email' }, password: { type: 'string' } } }),
        },
        { 200: signedIn },
      ),
    },
    '/api/auth/change-password': {
      post: operation(
        tag,
        'changePassword',
        {
          ...securityFor(CHANGE_PASSWORD_PERMISSION, roles, "Change the signed-in user's password."),
          requestBody: stringsBody('currentPassword', 'password', 'passwordConfirmation'),
        },
        { 200: signedIn },
      ),
    },
    // public, as Strapi's Public role has them
    '/api/auth/forgot-password': {
      post: operation(
        tag,
        'forgotPassword',
        {
          ...securityFor(undefined, roles, 'Mail a password reset code (valid one hour) to the account of this address; `{ ok: true }` whether or not there is one. 503 without an e-mail provider.'),
          requestBody: emailBody,
        },
        { 200: json('OK', { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } }) },
      ),
    },
    '/api/auth/reset-password': {
      post: operation(
        tag,
        'resetPassword',
        {
          ...securityFor(undefined, roles, 'Set a new password with the mailed code, once.'),
          requestBody: stringsBody('code', 'password', 'passwordConfirmation'),
        },
        { 200: signedIn },
      ),
    },
    '/api/auth/email-confirmation': {
      get: operation(
        tag,
        'emailConfirmation',
        {
          ...securityFor(undefined, roles, 'Confirm the account of the mailed link (valid one day), then redirect to `email_confirmation_redirection`.'),
          parameters: [{ name: 'confirmation', in: 'query', required: true, schema: { type: 'string' } }],
        },
        { 302: { description: 'Confirmed: `Location` is `email_confirmation_redirection`, or `/`' } },
      ),
    },
    '/api/auth/send-email-confirmation': {
      post: operation(
        tag,
        'sendEmailConfirmation',
        {
          ...securityFor(undefined, roles, 'Mail the confirmation link again.'),
          requestBody: emailBody,
        },
        { 200: json('OK', { type: 'object', required: ['email', 'sent'], properties: { email: { type: 'string' }, sent: { type: 'boolean' } } }) },
      ),
    },
    '/api/users/me': {
      get: operation(tag, 'me', { ...securityFor(ME_PERMISSION, roles, 'The signed-in user.'), parameters: [ME_POPULATE] }, { 200: json('OK', userRef) }),
    },
    '/api/users/count': {
      get: operation(tag, 'countUsers', securityFor(`${USERS}.find`, roles, 'How many users match (read as the list is).'), { 200: json('OK', { type: 'integer' }) }),
    },
    '/api/users': {
      get: operation(tag, 'findUsers', { ...securityFor(`${USERS}.find`, roles, 'Users, as a bare list.'), parameters: listQuery }, { 200: json('OK', { type: 'array', items: userRef }) }),
      post: operation(
        tag,
        'createUser',
        {
          ...securityFor(USER_WRITE_PERMISSIONS.create, roles, 'Make a user.'),
          requestBody: body({ type: 'object', required: ['username', 'email', 'password'], properties: { username: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' }, role: { type: 'integer' } } }),
        },
        { 201: json('Created', userRef) },
      ),
    },
    '/api/users/{id}': {
      get: operation(tag, 'findOneUser', { ...securityFor(`${USERS}.findOne`, roles, 'One user.'), parameters: [idParameter] }, { 200: json('OK', userRef), 404: ref('responses', 'NotFound') }),
      put: operation(
        tag,
        'updateUser',
        { ...securityFor(USER_WRITE_PERMISSIONS.update, roles, 'Change a user.'), parameters: [idParameter], requestBody: body({ type: 'object' }) },
        { 200: json('OK', userRef), 404: ref('responses', 'NotFound') },
      ),
      delete: operation(tag, 'destroyUser', { ...securityFor(USER_WRITE_PERMISSIONS.destroy, roles, 'Remove a user.'), parameters: [idParameter] }, { 200: json('OK', userRef), 404: ref('responses', 'NotFound') }),
    },
    ...rolePaths(tag, roles),
  };
};

const rolePaths = (tag: string, roles: RolePermissions): OpenApiPaths => {
  const roleParameter = { name: 'id', in: 'path', required: true, description: "the role's numeric id or documentId", schema: { type: 'string' } };
  const nested = { type: 'object', description: '`{ "api::article": { "controllers": { "article": { "find": { "enabled": true, "policy": "" } } } } }`', additionalProperties: true };
  const role = { type: 'object', properties: { id: { type: 'integer' }, documentId: { type: 'string' }, name: { type: 'string' }, description: { type: 'string', nullable: true }, type: { type: 'string' } } };
  const roleBody = body({
    type: 'object',
    properties: { name: { type: 'string' }, description: { type: 'string' }, type: { type: 'string' }, permissions: { anyOf: [{ type: 'array', items: { type: 'string' } }, nested] } },
  });
  const ok = json('OK', { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } });
  const notFound = ref('responses', 'NotFound');
  return {
    '/api/users-permissions/roles': {
      get: operation(tag, 'findRoles', securityFor(ROLE_READ_PERMISSIONS.find, roles, 'Every role, by name, with its number of users.'), {
        200: json('OK', { type: 'object', properties: { roles: { type: 'array', items: { ...role, properties: { ...role.properties, nb_users: { type: 'integer' } } } } } }),
      }),
      post: operation(tag, 'createRole', { ...securityFor(ROLE_WRITE_PERMISSIONS.create, roles, 'Make a role.'), requestBody: roleBody }, { 200: ok }),
    },
    '/api/users-permissions/roles/{id}': {
      get: operation(tag, 'findOneRole', { ...securityFor(ROLE_READ_PERMISSIONS.findOne, roles, 'One role, with every action enabled or not.'), parameters: [roleParameter] }, {
        200: json('OK', { type: 'object', properties: { role: { ...role, properties: { ...role.properties, permissions: nested } } } }),
        404: notFound,
      }),
      put: operation(tag, 'updateRole', { ...securityFor(ROLE_WRITE_PERMISSIONS.update, roles, 'Change a role the configuration does not list.'), parameters: [roleParameter], requestBody: roleBody }, { 200: ok, 404: notFound }),
      delete: operation(tag, 'deleteRole', { ...securityFor(ROLE_WRITE_PERMISSIONS.destroy, roles, "Remove a role the configuration does not list; its users get the Public role."), parameters: [roleParameter] }, { 200: ok, 404: notFound }),
    },
    '/api/users-permissions/permissions': {
      get: operation(tag, 'getPermissions', securityFor(ROLE_READ_PERMISSIONS.actions, roles, 'Every action a role may be given.'), { 200: json('OK', { type: 'object', properties: { permissions: nested } }) }),
    },
  };
};

const uploadPaths = (file: string, roles: RolePermissions): OpenApiPaths => {
  const fileRef = ref('schemas', file);
  const tag = 'Upload';
  return {
    '/api/upload': {
      post: operation(
        tag,
        'upload',
        {
          ...securityFor(UPLOAD_PERMISSIONS.upload, roles, 'Upload files (multipart `files`), optionally linked to a document (`ref`, `refId`, `field`).'),
          requestBody: body(
            {
              type: 'object',
              required: ['files'],
              properties: {
                files: { anyOf: [{ type: 'string', format: 'binary' }, { type: 'array', items: { type: 'string', format: 'binary' } }] },
                fileInfo: { type: 'string' },
                ref: { type: 'string' },
                refId: { type: 'string' },
                field: { type: 'string' },
              },
            },
            'multipart/form-data',
          ),
        },
        { 201: json('Uploaded', { type: 'array', items: fileRef }) },
      ),
    },
    '/api/upload/files': {
      get: operation(tag, 'findFiles', { ...securityFor(UPLOAD_PERMISSIONS.find, roles, 'Files, as a bare list.'), parameters: listQuery }, { 200: json('OK', { type: 'array', items: fileRef }) }),
    },
    '/api/upload/files/{id}': {
      get: operation(tag, 'findOneFile', { ...securityFor(UPLOAD_PERMISSIONS.findOne, roles, 'One file.'), parameters: [idParameter] }, { 200: json('OK', fileRef), 404: ref('responses', 'NotFound') }),
      delete: operation(tag, 'destroyFile', { ...securityFor(UPLOAD_PERMISSIONS.destroy, roles, 'Remove a file.'), parameters: [idParameter] }, { 200: json('OK', fileRef), 404: ref('responses', 'NotFound') }),
    },
  };
};

const i18nPaths = (roles: RolePermissions): OpenApiPaths => ({
  '/api/i18n/locales': {
    get: operation(
      'Internationalization',
      'listLocales',
      securityFor(LIST_LOCALES, roles, 'The configured locales.'),
      {
        200: json('OK', {
          type: 'array',
          items: {
            type: 'object',
            required: ['id', 'documentId', 'name', 'code', 'isDefault'],
            properties: { id: { type: 'integer' }, documentId: { type: 'string' }, name: { type: 'string' }, code: { type: 'string' }, isDefault: { type: 'boolean' } },
          },
        }),
      },
    ),
  },
});

export const pluginPaths = ({ user, file }: PluginSchemas, roles: RolePermissions): OpenApiPaths => ({
  ...(user ? usersPaths(user, roles) : {}),
  ...(file ? uploadPaths(file, roles) : {}),
  ...i18nPaths(roles),
});
