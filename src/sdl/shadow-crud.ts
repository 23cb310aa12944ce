import type { ContentAction } from './naming';

/**
 * Shadow CRUD switches (Strapi's `extension.shadowCRUD(uid)`), declared by extensions as plain data.
 * Read through the getters below; the SDL emitter turns them into `@disabled` marks.
 */

export interface FieldSwitches {
  disable?: boolean;
  /** false: not in the output type */
  output?: boolean;
  /** false: not in `<Type>Input` */
  input?: boolean;
  /** false: not in `<Type>FiltersInput` */
  filters?: boolean;
}

export interface TypeSwitches {
  disable?: boolean;
  disableQueries?: boolean;
  disableMutations?: boolean;
  disableActions?: ContentAction[];
  fields?: Record<string, FieldSwitches>;
}

export type ShadowCrudSettings = Record<string, TypeSwitches>;

const QUERY_ACTIONS: ContentAction[] = ['find', 'findOne'];

export interface ShadowCrud {
  isEnabled(uid: string): boolean;
  isQueriesEnabled(uid: string): boolean;
  isMutationsEnabled(uid: string): boolean;
  isActionEnabled(uid: string, action: ContentAction): boolean;
  field(uid: string, name: string): { isEnabled: boolean; isOutputEnabled: boolean; isInputEnabled: boolean; isFilterEnabled: boolean };
}

export const createShadowCrud = (enabled: boolean, settings: ShadowCrudSettings = {}): ShadowCrud => {
  const isEnabled = (uid: string) => enabled && settings[uid]?.disable !== true;
  const isQueriesEnabled = (uid: string) => isEnabled(uid) && settings[uid]?.disableQueries !== true;
  const isMutationsEnabled = (uid: string) => isEnabled(uid) && settings[uid]?.disableMutations !== true;
  return {
    isEnabled,
    isQueriesEnabled,
    isMutationsEnabled,
    isActionEnabled: (uid, action) =>
      (QUERY_ACTIONS.includes(action) ? isQueriesEnabled(uid) : isMutationsEnabled(uid)) &&
      !(settings[uid]?.disableActions ?? []).includes(action),
    field: (uid, name) => {
      const switches = settings[uid]?.fields?.[name] ?? {};
      const fieldEnabled = switches.disable !== true;
      return {
        isEnabled: fieldEnabled,
        isOutputEnabled: fieldEnabled && switches.output !== false,
        isInputEnabled: fieldEnabled && switches.input !== false,
        isFilterEnabled: fieldEnabled && switches.filters !== false,
      };
    },
  };
};
