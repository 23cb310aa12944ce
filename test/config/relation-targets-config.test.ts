import { configErrorLines, loadFrom } from './config-dir';

/** `config/plugins` `relation-targets`: what relations to plugins' content types outside src/ are served as. */

test('none by default; a content type of the project or false per plugin content type', () => {
  expect(loadFrom({}).relationTargets).toEqual({});
  const targets = { 'plugin::form-builder.built-form': 'api::form.form', 'plugin::comments.comment': false };
  expect(loadFrom({ 'plugins.json': { 'relation-targets': { config: targets } } }).relationTargets).toEqual(targets);
});

test('anything else is refused, naming what it takes', () => {
  expect(configErrorLines({ 'plugins.json': { 'relation-targets': { config: { 'plugin::form-builder.built-form': true, 'plugin::comments.comment': 'comment' } } } })).toEqual([
    `config/plugins.json: relation-targets.config.plugin::form-builder.built-form must be a content type's uid (api::<api>.<name>) or false, got true`,
    `config/plugins.json: relation-targets.config.plugin::comments.comment must be a content type's uid (api::<api>.<name>) or false, got "comment"`,
  ]);
});
