import {
  defaultFieldResolver,
  getOperationAST,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLFieldResolver,
} from 'graphql';
import type { GraphqlServer } from '../graphql/create-graphql-server';
import { createDocumentCache } from '../graphql/document-cache';
import type { FolioContext, PageLimits } from '../context';
import { withBadUserInputCode } from '../errors/graphql-errors';
import type { Principal } from '../auth/principal';

/**
 * Runs a compiled REST operation through the `/graphql` envelop pipeline (yoga's
 * `getEnveloped`): every plugin's parse, validate, context and execute hooks apply to REST as
 * they apply to GraphQL (authorization, depth, cost, token and amount limits). The context comes
 * from yoga's own context factory, handed the same `{ request, params }` yoga hands it.
 *
 * Compiled operations (parsed document and result shapers) are cached by request shape, so a
 * steady stream of requests parses nothing; validation still runs per request through the
 * pipeline, where yoga's cache answers it by document identity.
 */

export interface OperationPlan<Extra> {
  source: string;
  extra: Extra;
}

export interface CompiledOperation<Extra> extends OperationPlan<Extra> {
  document: DocumentNode;
  operationName: string | undefined;
}

/**
 * Numeric ids are not in the GraphQL schema (a Strapi 5 rule), but REST shows them. REST selects
 * `id: documentId`, and executes with this default resolver, which answers that one alias with
 * the row's numeric id. It is an execution argument only REST passes: no field is added to the
 * schema, and `/graphql` clients cannot reach it.
 */
// `id`, or under a per-type prefix (a polymorphic relation's items, see zoneAliasPrefix)
const ID_ALIAS = /^(?:_c\d+_)?id$/;

const restFieldResolver: GraphQLFieldResolver<unknown, FolioContext> = (source, args, context, info) => {
  // every value REST answers with counts against maxCost (see use-cost-limit)
  context.cost?.spend(1);
  return info.fieldName === 'documentId' && typeof info.path.key === 'string' && ID_ALIAS.test(info.path.key) && typeof source === 'object' && source !== null && 'id' in source
    ? (source as { id: unknown }).id
    : defaultFieldResolver(source, args, context, info);
};

export type RunResult<Extra> = { result: ExecutionResult; compiled?: CompiledOperation<Extra> };

/** `pageLimits`: REST's, which the resolvers clamp lists with instead of GraphQL's. */
export const createOperationRunner = <Extra>(graphql: GraphqlServer, pageLimits: PageLimits) => {
  const cache = createDocumentCache<CompiledOperation<Extra>>((_, compiled) => compiled.source);
  return {
    /** `principal`: the caller when the route settled it already (a project route), instead of the request's credentials */
    async run(request: Request, key: string, plan: () => OperationPlan<Extra>, variables: Record<string, unknown>, principal?: Principal): Promise<RunResult<Extra>> {
      const params = { query: '', variables };
      const enveloped = graphql.getEnveloped({ request, params, pageLimits, surface: 'rest', principal });
      let compiled = cache.get(key);
      if (!compiled) {
        const { source, extra } = plan();
        const document = enveloped.parse(source);
        const operation = getOperationAST(document);
        compiled = { source, extra, document, operationName: operation?.name?.value };
      }
      params.query = compiled.source;
      const errors = enveloped.validate(enveloped.schema, compiled.document);
      if (errors.length > 0) return { result: { errors } };
      cache.set(key, compiled);
      const contextValue = await enveloped.contextFactory();
      const result = await enveloped.execute({
        schema: enveloped.schema,
        document: compiled.document,
        variableValues: variables,
        contextValue,
        operationName: compiled.operationName,
        fieldResolver: restFieldResolver,
      });
      // no data: the variables did not coerce (every scalar refuses with a GraphQLError, which no mask hides),
      // a client mistake graphql-js gives no code
      if (!('data' in result)) return { result: { ...result, errors: result.errors?.map(withBadUserInputCode) } };
      return { result, compiled };
    },
  };
};
