import { APPLICATION_ERRORS, HttpError } from './strapi-errors';
import { strictMembers } from '../common/strict-members';

/**
 * What project files get for `require('@strapi/strapi')` and `require('@strapi/utils')`, packages
 * Folio does not install: the core factories (a router as Strapi's, see core-router; a controller or
 * service recorded as a definition Folio reads, not run) and Strapi's error classes. Any other member
 * throws naming it, so a file needing more stops start-up instead of failing later.
 */

export type CoreAction = 'find' | 'findOne' | 'create' | 'update' | 'delete';

/** `factories.createCoreController(uid, custom?)` or `createCoreService(uid, custom?)`. */
export class CoreModuleDefinition {
  constructor(
    readonly kind: 'controller' | 'service',
    readonly uid: string,
    /** the second argument: actions of its own and overrides, as an object or `({ strapi }) => object`; undefined for Strapi's default */
    readonly custom: unknown,
  ) {}
}

const ERRORS = { ...APPLICATION_ERRORS, HttpError };
const UTILS = strictMembers(`require('@strapi/utils')`, { errors: strictMembers(`require('@strapi/utils').errors`, ERRORS, `it gives ${Object.keys(ERRORS).join(', ')}`) }, 'it gives errors');

/** The packages by name, `createCoreRouter` being the requiring file's own (core-router). */
export const strapiPackages = (createCoreRouter: (uid: unknown, options?: unknown) => object): ReadonlyMap<string, object> => {
  const factories = {
    createCoreRouter,
    createCoreController: (uid: string, custom?: unknown) => new CoreModuleDefinition('controller', uid, custom),
    createCoreService: (uid: string, custom?: unknown) => new CoreModuleDefinition('service', uid, custom),
  };
  return new Map<string, object>([
    ['@strapi/strapi', strictMembers(`require('@strapi/strapi')`, { factories: strictMembers(`require('@strapi/strapi').factories`, factories, 'it gives createCoreRouter, createCoreController, createCoreService') }, 'it gives factories')],
    ['@strapi/utils', UTILS],
  ]);
};
