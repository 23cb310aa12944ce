import { loadModels } from '../../src/models/load-models';
import { contentType, contentTypePath, writeSchemaDir } from './schema-dir';

/** Attribute forms and options as Strapi writes them: custom fields (mapped to the type they store), regex. */

const schemaWith = (attributes: Record<string, unknown>) =>
  writeSchemaDir({ [contentTypePath('post')]: contentType('post', 'posts', attributes, { pluginOptions: { i18n: { localized: true } } }) });

test('a well-known custom field is its underlying type, with its own settings', () => {
  const models = loadModels(schemaWith({ body: { type: 'customField', customField: 'plugin::ckeditor.CKEditor', options: { preset: 'rich' }, required: true } }));
  expect(models.contentTypes.get('api::post.post')!.attributes.body).toEqual({ type: 'richtext', required: true, localized: true });
});

test("a project's mapping wins; an unknown one is JSON, with one warning naming the file, the attribute and the mapping to write", () => {
  const warnings: string[] = [];
  const dir = schemaWith({
    colour: { type: 'customField', customField: 'plugin::my-colours.swatch' },
    mood: { type: 'customField', customField: 'plugin::mood.picker' },
  });
  const models = loadModels(dir, { types: { 'plugin::my-colours.swatch': 'string' }, warn: (line) => warnings.push(line) });
  const { attributes } = models.contentTypes.get('api::post.post')!;
  expect(attributes.colour.type).toBe('string');
  expect(attributes.mood.type).toBe('json');
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(/schema\.json: attribute "mood": custom field "plugin::mood\.picker" is not one Folio knows; it is served as JSON\. Map it .*'custom-fields': \{ config: \{ 'plugin::mood\.picker': 'string' \} \}/);
});

test('a regex that does not compile is a model problem', () => {
  expect(() => loadModels(schemaWith({ code: { type: 'string', regex: '([a-z' } }))).toThrow(/attribute "code": regex is not a valid regular expression/);
  expect(loadModels(schemaWith({ code: { type: 'string', regex: '^[a-z]+$' } })).contentTypes.get('api::post.post')!.attributes.code).toMatchObject({ regex: '^[a-z]+$' });
});
