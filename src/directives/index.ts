import { readDirectiveSdl } from './directive-sdl';

export { applyFieldAuth, authOf, type FieldAuth } from './auth';
export { resolversLeft, withoutDisabled } from './disabled';
export { policyDirectiveTransformer, guardWithPolicies, resolvePolicy, type Policy, type PolicyRegistry } from './policy';

/** `directives/*.graphql` as written: read once, when the module loads. */
export const DIRECTIVE_SDL = readDirectiveSdl();
