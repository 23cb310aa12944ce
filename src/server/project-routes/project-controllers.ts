import type { ContentType, Models } from '../../models/types';
import type { ControllerAction } from '../../project/route-table';
import type { CoreAction } from '../../project/strapi-packages';
import { isRecord } from '../../common/is-record';
import { strictMembers } from '../../common/strict-members';
import type { KoaContext } from './koa-context';
import { coreActionsOf } from '../../project/core-router';
import { ProjectCodeError } from '../../project/project-code-error';
import { inheritedCalls } from './inherited-calls';
import { documentCalls, switchedOffCallMessage } from './document-calls';

/**
 * Controllers with actions of their own (`createCoreController(uid, actions)`), made once at start
 * as Strapi makes them: the project's object, or what its function returns for `{ strapi }`, over a
 * base holding the content-type's core actions (`super.find(ctx)`, `this.find(ctx)`) and
 * `transformResponse`. Anything else on `this` (`sanitizeOutput`, `validateQuery`) throws naming it.
 *
 * A routed action whose source calls a core action the Shadow CRUD configuration switches off
 * (`super.find(ctx)` with `find` off, or `strapi.documents(uid).findMany(...)`, see document-calls)
 * stops start-up naming the file and the action: Folio runs a core action through its GraphQL
 * operation, which then does not exist. So does one calling
 * `findOne` or `create` of a single type, whose controller has `find`, `update` and `delete` alone
 * in Strapi (core-api/controller/single-type): there the call is a TypeError. Called another way,
 * they are absent as in Strapi (`this.findOne` is undefined).
 */

/** A core action on a request's ctx: sets `ctx.status`, answers `{ data, meta }` (nothing for a delete). */
export type CoreActionRunner = (ctx: KoaContext, contentType: ContentType, action: CoreAction) => Promise<unknown>;

export type ControllerHandler = (ctx: KoaContext) => Promise<unknown>;

const CORE_ACTIONS: readonly CoreAction[] = ['find', 'findOne', 'create', 'update', 'delete'];

/** `isServed`: whether Shadow CRUD left a core action on */
export const createProjectControllers = (models: Models, strapi: object, runAction: CoreActionRunner, isServed: (contentType: ContentType, action: CoreAction) => boolean) => {
  const instances = new Map<string, Record<string, unknown>>();

  const instanceOf = (controller: ControllerAction, contentType: ContentType): Record<string, unknown> => {
    const made = instances.get(controller.uid);
    if (made) return made;
    const typeActions = coreActionsOf(contentType);
    const core = Object.fromEntries(typeActions.map((action) => [action, (ctx: KoaContext) => runAction(ctx, contentType, action)]));
    const base = strictMembers(
      `this (the ${controller.uid} controller)`,
      { ...core, transformResponse: (data: unknown, meta: unknown = {}) => ({ data, meta }) },
      `a controller of a ${contentType.kind === 'collectionType' ? 'collection' : 'single'} type gets this.${typeActions.join(', ')} and transformResponse`,
      new Set(CORE_ACTIONS.filter((action) => !typeActions.includes(action))),
    );
    let actions: unknown;
    try {
      actions = typeof controller.custom === 'function' ? (controller.custom as (deps: { strapi: object }) => unknown)({ strapi }) : controller.custom;
    } catch (error) {
      throw new Error(`${controller.file}: the controller failed to start: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!isRecord(actions)) throw new Error(`${controller.file}: the controller's actions must be an object, or ({ strapi }) => object`);
    Object.setPrototypeOf(actions, base);
    instances.set(controller.uid, actions);
    return actions;
  };

  /** What a route to a controller's action runs; a start-up error when the controller has no such action, or it calls a core action switched off or its type lacks. */
  return (controller: ControllerAction, contentType: ContentType): ControllerHandler => {
    const instance = instanceOf(controller, contentType);
    // `in`: the base answers the core actions, and throws for names it lacks
    const action = controller.name in instance ? instance[controller.name] : undefined;
    if (typeof action !== 'function') throw new Error(`${controller.file}: the controller ${controller.uid} has no action "${controller.name}"`);
    const { called, sources } = inheritedCalls(instance, controller.name);
    const typeActions = coreActionsOf(contentType);
    const messages = CORE_ACTIONS.filter((core) => called.has(core) && !(typeActions.includes(core) && isServed(contentType, core))).map((core) =>
      typeActions.includes(core)
        ? `the action "${controller.name}" calls the core action ${core} of ${contentType.uid}, which the Shadow CRUD configuration switches off: Folio runs a core action through its GraphQL operation, so it cannot run this one; switch it on again, or do without it`
        : `the action "${controller.name}" calls ${core}, which the controller of the single type ${contentType.uid} does not have (a single type's core actions are ${typeActions.join(', ')}, as in Strapi, where the call is a TypeError)`,
    );
    const switchedOff = sources.flatMap((source) => documentCalls(source, models)).filter((call) => !isServed(call.contentType, call.action));
    messages.push(...new Set(switchedOff.map((call) => switchedOffCallMessage(`the action "${controller.name}"`, call))));
    if (messages.length > 0) throw new ProjectCodeError(messages.map((message) => ({ file: controller.file, message })));
    return async (ctx) => (action as ControllerHandler).call(instance, ctx);
  };
};
