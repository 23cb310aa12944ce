import type { ContentType, Models } from '../models/types';
import { aggregationFieldsOf, combinableOf, MAX_GROUP_ATTRIBUTES, type AggregatableField, type AggregateKind } from './aggregation-fields';
import type { ShadowCrud } from './shadow-crud';
import * as names from './naming';
import { authDirective, printBlock, printDescription, type SdlField } from './sdl-builder';

/**
 * The aggregation types of a collection type's connection (issue 36), Strapi 3's shape on Strapi 5's
 * connections: `aggregate: ArticleAggregator` and `groupBy: ArticleGroupBy` on `ArticleEntityResponseCollection`.
 * A part with no field is left out (GraphQL has no empty types), and so is its field.
 */

const MIN_MAX_SCALAR: Record<AggregateKind, string> = {
  integer: 'Int',
  biginteger: 'Long',
  float: 'Float',
  decimal: 'Float',
  date: 'Date',
  time: 'Time',
  datetime: 'DateTime',
  string: 'String',
};

/** Sums of integers are Float: past 2^31 they leave GraphQL's Int; big integers' are exact decimal text. */
const sumScalar = (field: AggregatableField): string => (field.kind === 'biginteger' ? 'String' : 'Float');

const GROUP_ARGS = [`sort: [String] = []`, `pagination: ${names.SHARED_NAMES.paginationArg} = {}`];

const GROUPS_DESCRIPTION =
  `Groups by several attributes at once: one entry per combination of their values that a document of the connection has (as Directus' groupBy), computed in one store aggregation. ` +
  `\`by\`: 1 to ${MAX_GROUP_ATTRIBUTES} attributes, relations to types the caller may not find refused. ` +
  `\`sort\`: \`count\`, \`sum.<field>\`, \`avg.<field>\`, \`min.<field>\`, \`max.<field>\` or an attribute of \`by\`, each with \`:asc\` or \`:desc\`; then the attributes of \`by\` ascending. ` +
  `\`pagination\` pages the combinations, as lists are paged (at most maxLimit).`;

interface AggregationSdl {
  /** the fields the connection type gains */
  connectionFields: SdlField[];
  /** the types they answer with */
  types: string[];
}

/** `context`: emit-model-sdl's EmitContext */
export const emitAggregationSdl = (context: { models: Models; shadowCrud: ShadowCrud }, contentType: ContentType, typeDirectives: string[]): AggregationSdl => {
  if (contentType.kind !== 'collectionType') return { connectionFields: [], types: [] };
  const type = names.typeName(contentType);
  const { aggregatable, groupable } = aggregationFieldsOf(context.models, context.shadowCrud, contentType);
  const numeric = aggregatable.filter((field) => field.numeric);
  const parts: Array<{ field: string; part: 'Sum' | 'Avg' | 'Min' | 'Max'; fields: SdlField[] }> = [
    { field: 'sum', part: 'Sum', fields: numeric.map((field) => ({ name: field.name, type: sumScalar(field) })) },
    { field: 'avg', part: 'Avg', fields: numeric.map((field) => ({ name: field.name, type: 'Float' })) },
    { field: 'min', part: 'Min', fields: aggregatable.map((field) => ({ name: field.name, type: MIN_MAX_SCALAR[field.kind] })) },
    { field: 'max', part: 'Max', fields: aggregatable.map((field) => ({ name: field.name, type: MIN_MAX_SCALAR[field.kind] })) },
  ].filter((part): part is { field: string; part: 'Sum' | 'Avg' | 'Min' | 'Max'; fields: SdlField[] } => part.fields.length > 0);
  const types = [
    printBlock('type', names.aggregatorName(type), [{ name: 'count', type: 'Int!' }, ...parts.map(({ field, part }) => ({ name: field, type: names.aggregatorName(type, part) }))], typeDirectives),
    ...parts.map(({ part, fields }) => printBlock('type', names.aggregatorName(type, part), fields, typeDirectives)),
  ];
  const connectionFields: SdlField[] = [{ name: 'aggregate', type: names.aggregatorName(type) }];
  if (groupable.length > 0) {
    const entries = `[${names.groupByEntryName(type)}!]`;
    types.push(
      printBlock(
        'type',
        names.groupByName(type),
        groupable.map((field) => ({ name: field.name, type: entries, args: GROUP_ARGS, directives: field.target ? [authDirective([names.permissionFor(field.target, 'find')])] : [] })),
        typeDirectives,
      ),
      printBlock(
        'type',
        names.groupByEntryName(type),
        [
          { name: 'key', type: 'String' },
          { name: 'connection', type: names.entityCollectionName(type), args: [`pagination: ${names.SHARED_NAMES.paginationArg} = {}`, 'sort: [String] = []'] },
        ],
        typeDirectives,
      ),
    );
    connectionFields.push({ name: 'groupBy', type: names.groupByName(type) });
    const combinable = combinableOf(groupable);
    if (combinable.length > 0) {
      const keyFields = combinable.map((field) => ({ name: field.name, type: 'String', directives: field.target ? [authDirective([names.permissionFor(field.target, 'find')])] : [] }));
      types.push(
        `${printDescription('An attribute `groups(by:)` may group by: a short scalar, an enumeration, a boolean, a date, a to-one relation (by the related documentId), the locale.')}enum ${names.groupByAttributeName(type)}${typeDirectives.length > 0 ? ` ${typeDirectives.join(' ')}` : ''} {\n${combinable.map((field) => `  ${field.name}`).join('\n')}\n}`,
        printBlock('type', names.groupByKeyName(type), keyFields, typeDirectives, 'The values of a combination, one field per attribute (as text, as `ArticleGroupByEntry.key`): null for documents without a value, and for attributes not in `by`.'.replace('Article', type)),
        printBlock(
          'type',
          names.groupByCombinationName(type),
          [
            { name: 'key', type: `${names.groupByKeyName(type)}!` },
            {
              name: 'connection',
              type: names.entityCollectionName(type),
              args: [`pagination: ${names.SHARED_NAMES.paginationArg} = {}`, 'sort: [String] = []'],
              description: "The combination's documents: `aggregate` is computed with the combinations, `nodes` and `pageInfo` are read when selected.",
            },
          ],
          typeDirectives,
          'One combination of `groups`: its values, and its documents.',
        ),
      );
      connectionFields.push({
        name: 'groups',
        type: `[${names.groupByCombinationName(type)}!]`,
        args: [`by: [${names.groupByAttributeName(type)}!]!`, ...GROUP_ARGS],
        description: GROUPS_DESCRIPTION,
      });
    }
  }
  return { connectionFields, types };
};
