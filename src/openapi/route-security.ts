/**
 * A route's security by role, as the OpenAPI document states it: the permission it needs
 * (`x-permission`), the roles that have it (`x-roles`), and no credentials at all when the Public role
 * is among them. API tokens are roles of their own (full-access, read-only, custom), not listed here.
 */

/** role type → the permissions it grants (users/roles' rolePermissions) */
export type RolePermissions = ReadonlyMap<string, ReadonlySet<string>>;

const PUBLIC_ROLE = 'public';

export const securityFor = (permission: string | undefined, roles: RolePermissions, description: string) => {
  if (permission === undefined) return { security: [{}], description };
  const granted = [...roles].filter(([, permissions]) => permissions.has(permission)).map(([role]) => role);
  const open = granted.includes(PUBLIC_ROLE);
  const who = granted.length === 0 ? 'no role has it: an API token that grants it' : `roles that have it: ${granted.join(', ')}`;
  return {
    security: open ? [{}, { bearerAuth: [] }] : [{ bearerAuth: [] }],
    'x-permission': permission,
    'x-roles': granted,
    description: `${description}${description ? ' ' : ''}Needs the \`${permission}\` permission (${who}${open ? '; no credentials needed' : ''}).`,
  };
};
