import { createShadowCrud } from '../../src/sdl/shadow-crud';

describe('shadow CRUD getters', () => {
  const crud = createShadowCrud(true, {
    'api::a.a': { disableQueries: true, fields: { x: { input: false }, y: { disable: true } } },
    'api::b.b': { disableActions: ['create', 'findOne'] },
    'api::c.c': { disable: true },
  });

  test('type-level state', () => {
    expect(crud.isEnabled('api::a.a')).toBe(true);
    expect(crud.isQueriesEnabled('api::a.a')).toBe(false);
    expect(crud.isMutationsEnabled('api::a.a')).toBe(true);
    expect(crud.isActionEnabled('api::a.a', 'find')).toBe(false);
    expect(crud.isActionEnabled('api::a.a', 'update')).toBe(true);
    expect(crud.isActionEnabled('api::b.b', 'create')).toBe(false);
    expect(crud.isActionEnabled('api::b.b', 'findOne')).toBe(false);
    expect(crud.isActionEnabled('api::b.b', 'find')).toBe(true);
    expect(crud.isEnabled('api::c.c')).toBe(false);
    expect(crud.isActionEnabled('api::c.c', 'find')).toBe(false);
  });

  test('field-level state', () => {
    expect(crud.field('api::a.a', 'x')).toEqual({ isEnabled: true, isOutputEnabled: true, isInputEnabled: false, isFilterEnabled: true });
    expect(crud.field('api::a.a', 'y')).toEqual({ isEnabled: false, isOutputEnabled: false, isInputEnabled: false, isFilterEnabled: false });
  });

  test('shadowCRUD: false disables everything', () => {
    expect(createShadowCrud(false).isEnabled('api::a.a')).toBe(false);
  });
});
