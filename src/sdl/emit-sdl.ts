import type { Models } from '../models/types';
import { emitComponentSdl, emitContentTypeSdl, emitGenericMorph, type EmitContext } from './emit-model-sdl';
import { emitRootFields } from './emit-root-fields';
import { emitSharedSdl } from './shared-sdl';
import { printBlock } from './sdl-builder';
import { createShadowCrud, type ShadowCrud } from './shadow-crud';
import { DIRECTIVE_SDL } from '../directives/index';

export interface EmitOptions {
  shadowCrud?: ShadowCrud;
}

/**
 * Folio's addition to create and update mutations: relation writes in every form Strapi's REST takes
 * (`connect`, `disconnect`, `set`, positions, numeric ids), which the `ID` fields of Strapi's inputs cannot hold.
 */
export const RELATION_INPUT_DESCRIPTION = "documentId, array of documentIds, numeric ids, or { connect, disconnect, set } (Strapi's relation forms)";

const RELATION_WRITE_SDL = `"""${RELATION_INPUT_DESCRIPTION}"""
scalar RelationInput

"""One relation of \`data\` written in any of Strapi's forms: \`path\` names it (\`["tags"]\`, \`["hero", "cta", "page"]\`, \`["cards", "0", "page"]\`)."""
input RelationWriteInput {
  path: [String!]!
  value: RelationInput
}`;

/** Models → Shadow CRUD SDL text (directive definitions included), the input of the executable schema. */
export const emitSdl = (models: Models, options: EmitOptions = {}): string => {
  const context: EmitContext = { models, shadowCrud: options.shadowCrud ?? createShadowCrud(true) };
  const contentTypes = [...models.contentTypes.values()];
  const roots = contentTypes.map((contentType) => emitRootFields(context, contentType));
  const queries = roots.flatMap((root) => root.queries);
  const mutations = roots.flatMap((root) => root.mutations);
  const subscriptions = roots.flatMap((root) => root.subscriptions);
  return [
    DIRECTIVE_SDL,
    emitSharedSdl(),
    RELATION_WRITE_SDL,
    ...[...models.components.values()].map((component) => emitComponentSdl(context, component)),
    ...contentTypes.map((contentType) => emitContentTypeSdl(context, contentType)),
    // every schema has it: UploadFile.related answers with it, as polymorphic relations do
    emitGenericMorph(context),
    printBlock('type', 'Query', queries.length > 0 ? queries : [{ name: '_empty', type: 'Boolean' }]),
    ...(mutations.length > 0 ? [printBlock('type', 'Mutation', mutations)] : []),
    ...(subscriptions.length > 0 ? [printBlock('type', 'Subscription', subscriptions)] : []),
  ].join('\n\n') + '\n';
};
