import { PolicyError } from '../../project/strapi-errors';
import type { RouteMiddleware, RoutePolicy } from '../../project/route-table';
import type { KoaContext } from './koa-context';

/**
 * A project route's handler chain, in Strapi 5's order (strapi/strapi
 * packages/core/core/src/services/server/compose-endpoint.ts: route info, authenticate, authorize,
 * policies, middlewares, the action): the route's policies, then its middlewares around the core
 * action, Koa style: each step gets `next`, and what it does after `await next()` sees the action's
 * answer in `ctx.body`.
 */

export interface ChainStep {
  /** where the step is written: an error it throws is logged with it */
  file: string;
  run(ctx: KoaContext, next: () => Promise<void>): unknown;
}

/** Koa's compose: one pass, `next` at most once per step. `origins` records the file each unexpected error came from. */
export const runChain = (steps: readonly ChainStep[], ctx: KoaContext, origins: WeakMap<object, string>): Promise<void> => {
  let last = -1;
  const dispatch = async (index: number): Promise<void> => {
    if (index <= last) throw new Error('next() called multiple times');
    last = index;
    const step = steps[index];
    if (!step) return;
    try {
      await step.run(ctx, () => dispatch(index + 1));
    } catch (error) {
      // the innermost step that threw it is where it came from
      if (typeof error === 'object' && error !== null && !origins.has(error)) origins.set(error, step.file);
      throw error;
    }
  };
  return dispatch(0);
};

/**
 * A policy as a step: Strapi hands it `ctx` with `type` 'koa' and `is(type)`, and lets the request on
 * when it returns true or nothing; anything else is Strapi's 403 PolicyError ("Policy Failed").
 */
export const policyStep = (policy: RoutePolicy, strapi: object): ChainStep => ({
  file: policy.file,
  async run(ctx, next) {
    const policyContext = new Proxy(ctx, {
      get: (target, key, receiver) => (key === 'type' ? 'koa' : key === 'is' ? (type: unknown) => type === 'koa' : Reflect.get(target, key, receiver)),
    });
    const result = await policy.handler(policyContext, policy.config, { strapi });
    if (result !== true && result !== undefined) throw new PolicyError();
    await next();
  },
});

/** A middleware as a step: an inline handler as it is, a named one made by its factory, once, at start. */
export const middlewareStep = (middleware: RouteMiddleware, strapi: object): ChainStep => {
  if ('handler' in middleware) return { file: middleware.file, run: middleware.handler };
  let handler: unknown;
  try {
    handler = middleware.factory(middleware.config, { strapi });
  } catch (error) {
    throw new Error(`${middleware.file}: the middleware "${middleware.name}" failed to start: ${error instanceof Error ? error.message : String(error)}`);
  }
  // Strapi lets a factory that returns nothing pass the request on
  return { file: middleware.file, run: typeof handler === 'function' ? (handler as ChainStep['run']) : (_, next) => next() };
};
