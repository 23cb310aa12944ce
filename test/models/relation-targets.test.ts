import { loadModels } from '../../src/models/load-models';
import { withPluginTypes } from '../../src/models/extend-plugin-types';
import { USER_CONTENT_TYPE, USERS_PERMISSIONS_CONTENT_TYPES } from '../../src/users/users-content-types';
import { component, contentType, contentTypePath, postWith, writeSchemaDir } from './schema-dir';

/** Relations to what is not content of the project: admin users, plugins' content types outside src/. */

const FORM = 'plugin::form-builder.built-form';

const load = (files: Record<string, unknown>, options: Parameters<typeof loadModels>[1] = {}) => {
  const warnings: string[] = [];
  const models = loadModels(writeSchemaDir(files), { ...options, warn: (line) => warnings.push(line) });
  return { models, warnings };
};

test('relations to admin users are left out of content types, components and the user extension, without a word', () => {
  const { models, warnings } = load(
    postWith(
      {
        title: { type: 'string' },
        owner: { type: 'relation', relation: 'manyToOne', target: 'admin::user' },
        approval: { type: 'component', repeatable: false, component: 'shared.approval' },
      },
      {
        'components/shared/approval.json': component('approval', { at: { type: 'datetime' }, by: { type: 'relation', relation: 'oneToOne', target: 'admin::user' } }),
        'extensions/users-permissions/content-types/user/schema.json': contentType('user', 'users', { coach: { type: 'relation', relation: 'manyToOne', target: 'admin::user' } }),
      },
    ),
  );
  expect(warnings).toEqual([]);
  const post = models.contentTypes.get('api::post.post')!;
  expect([Object.keys(post.attributes), post.leftOut]).toEqual([['title', 'approval'], ['owner']]);
  const approval = models.components.get('shared.approval')!;
  expect([Object.keys(approval.attributes), approval.leftOut]).toEqual([['at'], ['by']]);
  const user = withPluginTypes(models, USERS_PERMISSIONS_CONTENT_TYPES).contentTypes.get(USER_CONTENT_TYPE.uid)!;
  expect(user.leftOut).toEqual(['coach']);
  expect(user.attributes).not.toHaveProperty('coach');
});

test("a relation to a plugin's content type outside src/ is left out with one warning naming the attribute, the plugin and the config that maps or silences it", () => {
  const files = postWith({ form: { type: 'relation', relation: 'oneToOne', target: FORM } }, { [contentTypePath('survey')]: contentType('survey', 'surveys', { name: { type: 'string' } }) });
  const { models, warnings } = load(files);
  expect(models.contentTypes.get('api::post.post')).toMatchObject({ attributes: {}, leftOut: ['form'] });
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(
    /^folio: .*post\/schema\.json: attribute "form" is left out of both surfaces: its target plugin::form-builder\.built-form is a content type of the form-builder plugin, .* in config\/plugins: 'relation-targets': \{ config: \{ 'plugin::form-builder\.built-form': 'api::<name>\.<name>' \} \} \(or false\)$/,
  );

  const silenced = load(files, { relationTargets: { [FORM]: false } });
  expect([silenced.warnings, silenced.models.contentTypes.get('api::post.post')!.leftOut]).toEqual([[], ['form']]);

  const mapped = load(files, { relationTargets: { [FORM]: 'api::survey.survey' } });
  expect(mapped.warnings).toEqual([]);
  expect(mapped.models.contentTypes.get('api::post.post')!.attributes.form).toMatchObject({ type: 'relation', target: 'api::survey.survey' });
  expect(() => load(files, { relationTargets: { [FORM]: 'api::nope.nope' } })).toThrow(/attribute "form": target api::nope\.nope is not a known content-type/);
});

test("the plugins Folio serves stay relation targets, and a plugin's extension keeps its relations to its own types", () => {
  const { models, warnings } = load(
    postWith(
      { author: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user' } },
      {
        'extensions/users-permissions/content-types/user/schema.json': contentType('user', 'users', {
          role: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.role', inversedBy: 'users' },
        }),
      },
    ),
  );
  expect(warnings).toEqual([]);
  expect(models.contentTypes.get('api::post.post')!.attributes.author).toMatchObject({ target: 'plugin::users-permissions.user' });
  expect(models.pluginExtensions?.get(USER_CONTENT_TYPE.uid)?.attributes.role).toMatchObject({ target: 'plugin::users-permissions.role' });
});

test('a user extension relating users to users keeps both sides; an inverse side with no owning side is still left out', () => {
  const warnings: string[] = [];
  const models = loadModels(
    writeSchemaDir({
      'extensions/users-permissions/content-types/user/schema.json': contentType('user', 'users', {
        manager: { type: 'relation', relation: 'manyToOne', target: USER_CONTENT_TYPE.uid, inversedBy: 'members' },
        members: { type: 'relation', relation: 'oneToMany', target: USER_CONTENT_TYPE.uid, mappedBy: 'manager' },
        mentees: { type: 'relation', relation: 'oneToMany', target: USER_CONTENT_TYPE.uid, mappedBy: 'mentor' },
      }),
    }),
  );
  const user = withPluginTypes(models, USERS_PERMISSIONS_CONTENT_TYPES, (line) => void warnings.push(line)).contentTypes.get(USER_CONTENT_TYPE.uid)!;
  expect(user.attributes).toMatchObject({ manager: { inversedBy: 'members' }, members: { mappedBy: 'manager' } });
  expect(user.attributes).not.toHaveProperty('mentees');
  expect(warnings).toEqual([expect.stringMatching(/attribute "mentees" is left out: its owning side \(plugin::users-permissions\.user\.mentor\) does not exist/)]);
});
