import type { Plugin } from '@envelop/core';

/**
 * A plugin for `/graphql` documents only. REST requests enter the pipeline with `surface: 'rest'`
 * in their initial context and are compiled by Folio from what the client sent: limits on a
 * document's shape (depth, aliases, tokens, directives) would count Folio's compilation, not the
 * client's request, so REST is held by its own knobs instead (`api.rest.maxLimit`,
 * `api.rest.maxPopulateDepth`, the body and URL sizes). Hooks the plugin adds (`addPlugin`) are
 * wrapped the same way.
 *
 * A REST document validated without these rules may be cached as valid; a `/graphql` client
 * sending that same text gets what the REST request would have given it, no more.
 */

const isRest = (context: unknown): boolean => typeof context === 'object' && context !== null && (context as { surface?: unknown }).surface === 'rest';

export const forGraphqlOnly = <C extends Record<string, unknown>>(plugin: Plugin<C>): Plugin<C> => {
  const { onPluginInit, onParse, onValidate, onExecute, onSubscribe } = plugin;
  return {
    ...plugin,
    ...(onPluginInit && { onPluginInit: (payload) => onPluginInit({ ...payload, addPlugin: (added) => payload.addPlugin(forGraphqlOnly(added)) }) }),
    ...(onParse && { onParse: (payload) => (isRest(payload.context) ? undefined : onParse(payload)) }),
    ...(onValidate && { onValidate: (payload) => (isRest(payload.context) ? undefined : onValidate(payload)) }),
    ...(onExecute && { onExecute: (payload) => (isRest(payload.args.contextValue) ? undefined : onExecute(payload)) }),
    ...(onSubscribe && { onSubscribe: (payload) => (isRest(payload.args.contextValue) ? undefined : onSubscribe(payload)) }),
  };
};
