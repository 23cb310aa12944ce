import { authDirectiveSdl } from './auth';
import { disabledDirectiveSdl } from './disabled';
import { policyDirectiveSdl } from './policy';

export { authDirectiveTransformer, applyAuthOverrides, authOf, type FieldAuth } from './auth';
export { disabledDirectiveTransformer } from './disabled';
export { policyDirectiveTransformer, guardWithPolicies, resolvePolicy, type Policy, type PolicyRegistry } from './policy';

export const DIRECTIVE_SDL = [authDirectiveSdl, policyDirectiveSdl, disabledDirectiveSdl].join('\n');
