import type { RouteOperation } from './content-routes';
import type { Selection } from './selection';
import { selectionText, selectionVariables } from './selection-plan';

/**
 * The GraphQL operation a REST request compiles to: its root field with the route's arguments as
 * variables, aliased `data`, and the selection set of `fields` and `populate`. Lists select the
 * connection (`nodes`, and `pageInfo { total }` when the request wants a count).
 */

/** Root arguments REST fills from the path, the query string and the body. */
const ROOT_ARGUMENTS = ['documentId', 'filters', 'sort', 'pagination', 'status', 'publicationFilter', 'hasPublishedVersion', 'data', 'locale', 'relations'] as const;
export type RootArgument = (typeof ROOT_ARGUMENTS)[number];

export const rootArgumentsOf = (operation: RouteOperation): RootArgument[] =>
  operation.field.args.flatMap((arg) => ((ROOT_ARGUMENTS as readonly string[]).includes(arg.name) ? [arg.name as RootArgument] : []));

/**
 * A compiled operation's name: REST's, with the root field it runs, so traces and logs that name
 * operations tell REST routes apart (`Rest_articles_connection`).
 */
const restOperationName = (operation: RouteOperation): string => `Rest_${operation.field.name}`;

export const operationText = (operation: RouteOperation, selection: Selection, withCount: boolean): string => {
  const types = new Map(operation.field.args.map((arg) => [arg.name, String(arg.type)]));
  const args = rootArgumentsOf(operation);
  let counter = 0;
  const next = () => `$p${counter++}`;
  const body = operation.action === 'delete' ? 'documentId' : selectionText(selection, next);
  const populateVariables = operation.action === 'delete' ? [] : selectionVariables(selection);
  const definitions = [
    ...args.map((name) => `$${name}: ${types.get(name)}`),
    ...populateVariables.map((variable, index) => `$p${index}: ${variable.type}`),
  ];
  const call = args.length > 0 ? `${operation.field.name}(${args.map((name) => `${name}: $${name}`).join(', ')})` : operation.field.name;
  const inner = operation.list ? `nodes { ${body} }${withCount ? ' pageInfo { total }' : ''}` : body;
  const name = restOperationName(operation);
  const header = definitions.length > 0 ? `${operation.kind} ${name}(${definitions.join(', ')})` : `${operation.kind} ${name}`;
  return `${header} { data: ${call} { ${inner} } }`;
};
