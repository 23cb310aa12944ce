import type { Attribute, Component, ContentType, Models } from '../models/types';
import * as names from './naming';
import { filterInputOf, filterScalarOf, graphqlScalarOf } from './scalar-types';
import { authDirective, DISABLED, printBlock, type SdlField } from './sdl-builder';
import type { ShadowCrud } from './shadow-crud';
import { enumValueName } from '../models/enum-values';
import { emitAggregationSdl } from './emit-aggregation-sdl';

/** Emits the output, input and filter types of content-types and components. */

export interface EmitContext {
  models: Models;
  shadowCrud: ShadowCrud;
}

type Owner = { uid: string; typeName: string; attributes: Record<string, Attribute>; contentType?: ContentType };

const ownerOfContentType = (contentType: ContentType): Owner => ({
  uid: contentType.uid,
  typeName: names.typeName(contentType),
  attributes: contentType.attributes,
  contentType,
});

const ownerOfComponent = (component: Component): Owner => ({
  uid: component.uid,
  typeName: names.componentTypeName(component),
  attributes: component.attributes,
});

const isPrivate = (attribute: Attribute): boolean => attribute.private === true || attribute.type === 'password';

const targetTypeName = (context: EmitContext, uid: string): string | undefined => {
  const target = context.models.contentTypes.get(uid);
  return target ? names.typeName(target) : undefined;
};

const componentTypeNameOf = (context: EmitContext, uid: string): string => {
  const component = context.models.components.get(uid);
  if (!component) throw new Error(`unknown component ${uid}`);
  return names.componentTypeName(component);
};

const listArgs = (filtersInput: string): string[] => [
  `filters: ${filtersInput}`,
  `pagination: ${names.SHARED_NAMES.paginationArg} = {}`,
  'sort: [String] = []',
];

const disabledUnless = (enabled: boolean): string[] => (enabled ? [] : [DISABLED]);

const toManyFields = (name: string, target: string, filtersInput: string, collection: string, extra: string[]): SdlField[] => [
  { name: names.connectionFieldName(name), type: collection, args: listArgs(filtersInput), directives: extra },
  { name, type: `[${target}]!`, args: listArgs(filtersInput), directives: extra },
];

const outputFieldsOf = (context: EmitContext, owner: Owner, name: string, attribute: Attribute): SdlField[] => {
  const switches = context.shadowCrud.field(owner.uid, name);
  const disabled = disabledUnless(switches.isOutputEnabled);
  switch (attribute.type) {
    case 'relation': {
      const target = targetTypeName(context, attribute.target);
      if (!target) return [];
      if (!context.shadowCrud.isEnabled(attribute.target)) disabled.splice(0, disabled.length, DISABLED);
      const directives = [...disabled, authDirective([`${attribute.target}.find`])];
      const toMany = attribute.relation === 'oneToMany' || attribute.relation === 'manyToMany';
      return toMany
        ? toManyFields(name, target, names.filtersInputName(target), names.relationCollectionName(target), directives)
        : [{ name, type: target, directives }];
    }
    case 'media':
      return attribute.multiple
        ? toManyFields(name, names.SHARED_NAMES.uploadFile, names.SHARED_NAMES.uploadFileFilters, 'UploadFileRelationResponseCollection', disabled)
        : [{ name, type: names.SHARED_NAMES.uploadFile, directives: disabled }];
    case 'component': {
      const component = componentTypeNameOf(context, attribute.component);
      return attribute.repeatable
        ? [{ name, type: `[${component}]`, args: listArgs(names.filtersInputName(component)), directives: disabled }]
        : [{ name, type: component, directives: disabled }];
    }
    case 'dynamiczone':
      return [{ name, type: `[${names.dynamicZoneName(owner.typeName, name)}]`, directives: disabled }];
    case 'morph':
      // each related document's own type's find permission is checked as it is read
      return [{ name, type: attribute.relation === 'morphToMany' ? `[${names.GENERIC_MORPH}]` : names.GENERIC_MORPH, directives: disabled }];
    case 'enumeration':
      return [{ name, type: `${names.enumName(owner.typeName, name)}${attribute.required ? '!' : ''}`, directives: disabled }];
    default:
      return [{ name, type: `${graphqlScalarOf(attribute.type)}${attribute.required ? '!' : ''}`, directives: disabled }];
  }
};

const inputFieldOf = (context: EmitContext, owner: Owner, name: string, attribute: Attribute): SdlField => {
  const directives = disabledUnless(context.shadowCrud.field(owner.uid, name).isInputEnabled);
  switch (attribute.type) {
    case 'relation':
      // Strapi's types, so clients' `$tags: [ID]` variables fit; the richer writes go through the `relations` argument
      return { name, type: attribute.relation === 'oneToMany' || attribute.relation === 'manyToMany' ? '[ID]' : 'ID', directives };
    case 'media':
      return { name, type: attribute.multiple ? '[ID]' : 'ID', directives };
    case 'component': {
      const input = names.inputName(componentTypeNameOf(context, attribute.component));
      return { name, type: attribute.repeatable ? `[${input}]` : input, directives };
    }
    case 'dynamiczone':
      return { name, type: `[${names.dynamicZoneInputName(owner.typeName, name)}!]`, directives };
    case 'morph':
      // Strapi's GraphQL inputs have no polymorphic relations; REST bodies (compiled to this input) write them
      return { name, type: 'JSON', directives };
    case 'enumeration':
      return { name, type: names.enumName(owner.typeName, name), directives };
    default:
      return { name, type: graphqlScalarOf(attribute.type), directives };
  }
};

const filterFieldOf = (context: EmitContext, owner: Owner, name: string, attribute: Attribute): SdlField | undefined => {
  if (isPrivate(attribute)) return undefined;
  const directives = disabledUnless(context.shadowCrud.field(owner.uid, name).isFilterEnabled);
  switch (attribute.type) {
    case 'relation': {
      const target = targetTypeName(context, attribute.target);
      if (!target) return undefined;
      if (!context.shadowCrud.isEnabled(attribute.target)) directives.splice(0, directives.length, DISABLED);
      return { name, type: names.filtersInputName(target), directives };
    }
    case 'component':
      return { name, type: names.filtersInputName(componentTypeNameOf(context, attribute.component)), directives };
    case 'media':
    case 'dynamiczone':
    case 'morph':
      return undefined;
    default:
      return { name, type: filterInputOf(filterScalarOf(attribute.type)), directives };
  }
};

const enumsAndZonesOf = (context: EmitContext, owner: Owner): string[] =>
  Object.entries(owner.attributes).flatMap(([name, attribute]) => {
    if (attribute.type === 'enumeration' && attribute.enum) {
      return [`enum ${names.enumName(owner.typeName, name)} {\n${attribute.enum.map((value) => `  ${enumValueName(value)}`).join('\n')}\n}`];
    }
    if (attribute.type === 'dynamiczone') {
      const members = [...attribute.components.map((uid) => componentTypeNameOf(context, uid)), names.SHARED_NAMES.error];
      return [
        `union ${names.dynamicZoneName(owner.typeName, name)} = ${members.join(' | ')}`,
        `"""A dynamic-zone entry: an object whose \`__typename\` or \`__component\` names one of the zone's components."""\nscalar ${names.dynamicZoneInputName(owner.typeName, name)}`,
      ];
    }
    return [];
  });

const publicAttributes = (owner: Owner): Array<[string, Attribute]> =>
  Object.entries(owner.attributes).filter(([, attribute]) => !isPrivate(attribute));

/** As Strapi types them: the items may be null (skipped), so `$and: [ArticleFiltersInput]` variables are accepted. */
const logicalFilterFields = (filtersInput: string): SdlField[] => [
  { name: 'and', type: `[${filtersInput}]` },
  { name: 'or', type: `[${filtersInput}]` },
  { name: 'not', type: filtersInput },
];

export const emitComponentSdl = (context: EmitContext, component: Component): string => {
  const owner = ownerOfComponent(component);
  const filtersInput = names.filtersInputName(owner.typeName);
  const attributes = Object.entries(owner.attributes);
  return [
    ...enumsAndZonesOf(context, owner),
    printBlock('type', owner.typeName, [
      { name: 'id', type: 'ID!' },
      ...publicAttributes(owner).flatMap(([name, attribute]) => outputFieldsOf(context, owner, name, attribute)),
    ]),
    printBlock('input', names.inputName(owner.typeName), [
      { name: 'id', type: 'ID' },
      ...attributes.map(([name, attribute]) => inputFieldOf(context, owner, name, attribute)),
    ]),
    printBlock('input', filtersInput, [
      ...attributes.flatMap(([name, attribute]) => filterFieldOf(context, owner, name, attribute) ?? []),
      ...logicalFilterFields(filtersInput),
    ]),
  ].join('\n\n');
};

export const emitContentTypeSdl = (context: EmitContext, contentType: ContentType): string => {
  const owner = ownerOfContentType(contentType);
  const type = owner.typeName;
  const filtersInput = names.filtersInputName(type);
  const typeDirectives = disabledUnless(context.shadowCrud.isEnabled(contentType.uid));
  const attributes = Object.entries(owner.attributes);
  const localizationFields: SdlField[] = contentType.localized
    ? [{ name: 'locale', type: 'String' }, ...toManyFields('localizations', type, filtersInput, names.relationCollectionName(type), [])]
    : [];
  const aggregation = emitAggregationSdl(context, contentType, typeDirectives);
  return [
    ...enumsAndZonesOf(context, owner),
    printBlock(
      'type',
      type,
      [
        { name: 'documentId', type: 'ID!' },
        ...publicAttributes(owner).flatMap(([name, attribute]) => outputFieldsOf(context, owner, name, attribute)),
        { name: 'createdAt', type: 'DateTime' },
        { name: 'updatedAt', type: 'DateTime' },
        { name: 'publishedAt', type: 'DateTime' },
        ...localizationFields,
      ],
      typeDirectives,
    ),
    printBlock('type', names.entityCollectionName(type), [
      { name: 'nodes', type: `[${type}!]!` },
      { name: 'pageInfo', type: `${names.SHARED_NAMES.pagination}!` },
      ...aggregation.connectionFields,
    ], typeDirectives),
    ...aggregation.types,
    printBlock('type', names.relationCollectionName(type), [{ name: 'nodes', type: `[${type}!]!` }], typeDirectives),
    printBlock(
      'input',
      names.inputName(type),
      [
        ...attributes.map(([name, attribute]) => inputFieldOf(context, owner, name, attribute)),
        { name: 'publishedAt', type: 'DateTime' },
        // as Strapi types them: accepted and left alone (a localized type's locale is an argument)
        ...(contentType.localized ? [] : [{ name: 'locale', type: 'String' }]),
      ],
      typeDirectives,
    ),
    printBlock(
      'input',
      filtersInput,
      [
        { name: 'documentId', type: 'IDFilterInput' },
        // the numeric id: REST clients filter on it (`filters[id][$in][0]=…`, as the spec shows)
        { name: 'id', type: 'IntFilterInput' },
        ...attributes.flatMap(([name, attribute]) => filterFieldOf(context, owner, name, attribute) ?? []),
        { name: 'createdAt', type: 'DateTimeFilterInput' },
        { name: 'updatedAt', type: 'DateTimeFilterInput' },
        { name: 'publishedAt', type: 'DateTimeFilterInput' },
        ...(contentType.localized
          ? [
              { name: 'locale', type: 'StringFilterInput' },
              { name: 'localizations', type: filtersInput },
            ]
          : []),
        // on a relation (`category: { null: true }`): whether any document is linked; a Folio addition
        { name: 'null', type: 'Boolean' },
        { name: 'notNull', type: 'Boolean' },
        ...logicalFilterFields(filtersInput),
      ],
      typeDirectives,
    ),
  ].join('\n\n');
};

/** Strapi's `GenericMorph`: every component, file and content-type a polymorphic relation may answer. */
export const emitGenericMorph = (context: EmitContext): string => {
  const members = [
    ...[...context.models.components.values()].map((component) => names.componentTypeName(component)),
    names.SHARED_NAMES.uploadFile,
    ...[...context.models.contentTypes.values()].filter((contentType) => context.shadowCrud.isEnabled(contentType.uid)).map((contentType) => names.typeName(contentType)),
  ];
  return `union ${names.GENERIC_MORPH} = ${members.join(' | ')}`;
};
