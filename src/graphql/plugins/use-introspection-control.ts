import type { Plugin } from '@envelop/core';
import { NoSchemaIntrospectionCustomRule } from 'graphql';

/** Introspection off (production default): `__schema` and `__type` fail validation. */
export const useIntrospectionControl = (enabled: boolean): Plugin => ({
  onValidate({ addValidationRule }) {
    if (!enabled) addValidationRule(NoSchemaIntrospectionCustomRule);
  },
});
