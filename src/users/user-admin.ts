import type { DocumentService } from '../documents/document-service';
import type { Scope } from '../documents/scope';
import type { Filter, StoredDocument } from '../storage/types';
import { applicationError, badUserInput, notFoundError, validationErrors, type ValidationIssue } from '../errors/graphql-errors';
import type { ContentType } from '../models/types';
import { addedUserAttributes, ROLE_CONTENT_TYPE } from './users-content-types';
import { REGISTER_FIELDS, registrationIssues } from './account-input';
import { createUserLookup } from './user-lookup';
import { isRecord } from '../common/is-record';

/**
 * Strapi's `POST /api/users`, `PUT /api/users/:id` and `DELETE /api/users/:id`: users made, changed
 * and removed by a caller holding `plugin::users-permissions.user.create|update|destroy` (an
 * administrator's API token, typically), with Strapi's rules and messages.
 */

export interface UserAdmin {
  create(input: unknown): Promise<StoredDocument>;
  update(id: number, input: unknown): Promise<StoredDocument>;
  remove(id: number): Promise<StoredDocument>;
}

const PUBLISHED: Scope = { status: 'published' };
const WRITABLE = ['username', 'email', 'password', 'role', 'confirmed', 'blocked'];


const issue = (field: string, message: string, value?: unknown): ValidationIssue => ({ path: [field], message: `${field} ${message}`, name: 'ValidationError', ...(value === undefined ? {} : { value }) });

/** What a body may hold, checked field by field; `required` on creation. */
const bodyIssues = (input: Record<string, unknown>, required: boolean): ValidationIssue[] => {
  const issues = registrationIssues(input, required ? undefined : REGISTER_FIELDS.filter((field) => field in input));
  for (const flag of ['confirmed', 'blocked']) {
    if (input[flag] !== undefined && typeof input[flag] !== 'boolean') issues.push(issue(flag, 'must be a `boolean` type', input[flag]));
  }
  if (input.role !== undefined && !(typeof input.role === 'number' && Number.isSafeInteger(input.role))) issues.push(issue('role', 'must be a role id', input.role));
  return issues;
};

/** `userType`: the project's user type, whose added attributes are writable too. */
export const createUserAdmin = ({ documents, defaultRoleId, userType }: { documents: DocumentService; defaultRoleId: string; userType: ContentType }): UserAdmin => {
  const writable = [...WRITABLE, ...addedUserAttributes(userType)];
  const findOne = createUserLookup(documents, userType);

  const check = async (input: unknown, current?: StoredDocument): Promise<Record<string, unknown>> => {
    if (!isRecord(input)) throw badUserInput('Invalid parameters');
    const unknown = Object.keys(input).filter((key) => !writable.includes(key));
    if (unknown.length > 0) throw badUserInput(`Invalid parameters: ${unknown.join(', ')}`);
    const issues = bodyIssues(input, current === undefined);
    if (issues.length > 0) throw validationErrors(issues);
    const data: Record<string, unknown> = { ...input };
    const others = (filter: Filter): Filter => (current ? { $and: [filter, { id: { $ne: current.id as number } }] } : filter);
    if (typeof input.username === 'string' && (await findOne(others({ username: input.username })))) throw applicationError('Username already taken');
    if (typeof input.email === 'string') {
      data.email = input.email.toLowerCase();
      if (await findOne(others({ email: data.email }))) throw applicationError('Email already taken');
    }
    if (typeof input.role === 'number') {
      const role = (await documents.findMany(ROLE_CONTENT_TYPE, PUBLISHED, { filter: { id: input.role }, limit: 1 }))[0];
      if (!role) throw badUserInput(`Role ${input.role} not found`, { key: 'role' });
      data.role = role.documentId;
    }
    return data;
  };

  const existing = async (id: number): Promise<StoredDocument> => {
    const user = await findOne({ id });
    if (!user) throw notFoundError('User not found');
    return user;
  };

  return {
    async create(input) {
      const data = await check(input);
      return documents.create(userType, { confirmed: false, blocked: false, role: defaultRoleId, ...data, provider: 'local' }, PUBLISHED);
    },
    async update(id, input) {
      const user = await existing(id);
      return documents.update(userType, user.documentId as string, await check(input, user), PUBLISHED);
    },
    async remove(id) {
      const user = await existing(id);
      await documents.remove(userType, user.documentId as string, undefined);
      return user;
    },
  };
};
