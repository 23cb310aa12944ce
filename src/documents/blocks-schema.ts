import * as yup from 'yup';
import type { AnySchema } from 'yup';
import { isRecord } from '../common/is-record';
import { typed } from './strapi-yup';

/**
 * A `blocks` attribute's yup schema, as Strapi's
 * (packages/core/core/src/services/entity-validator/blocks-validator.ts): each node's type and
 * children, with Strapi's messages (`Block node is of invalid type`, `Paragraph node children must
 * have at least one Text or Link node`, …), drafts and published versions alike. What is not a
 * list of blocks at all is refused as it is stored (coerce-scalar.ts).
 */

/** yup 0.32 takes a `lazy` as a list's items, though its types say otherwise (Strapi casts too). */
const byType = (choose: (type: unknown) => AnySchema): AnySchema => yup.lazy((node: unknown) => choose(isRecord(node) ? node.type : undefined)) as unknown as AnySchema;

const invalid = (message: string): AnySchema => yup.mixed().test('invalid-type', message, () => false);

const nodeType = (...types: string[]) => typed(yup.string()).equals(types).required();

const textNode = typed(yup.object()).shape({
  type: nodeType('text'),
  text: typed(yup.string()).test('is-valid-text', 'Text must be defined with at least an empty string', (text: unknown) => typeof text === 'string'),
  bold: typed(yup.boolean()),
  italic: typed(yup.boolean()),
  underline: typed(yup.boolean()),
  strikethrough: typed(yup.boolean()),
  code: typed(yup.boolean()),
});

const BLOCKED_LINK_PROTOCOLS = new Set(['javascript:', 'vbscript:', 'data:']);

const isValidLink = (link: string): boolean => {
  try {
    return !BLOCKED_LINK_PROTOCOLS.has(new URL(link.startsWith('/') ? `https://strapi.io${link}` : link).protocol);
  } catch {
    return false;
  }
};

const linkNode = typed(yup.object()).shape({
  type: nodeType('link'),
  url: typed(yup.string()).test('invalid-url', 'Please specify a valid link.', (value: unknown) => isValidLink(typeof value === 'string' ? value : '')),
  children: typed(yup.array()).of(textNode).required(),
});

const inlineNode = byType((type) => (type === 'text' ? textNode : type === 'link' ? linkNode : invalid('Inline node must be Text or Link')));

const inlineChildren = (atLeastOne: string) => typed(yup.array()).of(inlineNode).min(1, atLeastOne).required();

const paragraphNode = typed(yup.object()).shape({
  type: nodeType('paragraph'),
  children: inlineChildren('Paragraph node children must have at least one Text or Link node'),
});

const headingNode = typed(yup.object()).shape({
  type: nodeType('heading'),
  level: typed(yup.number()).oneOf([1, 2, 3, 4, 5, 6]).required(),
  children: inlineChildren('Heading node children must have at least one Text or Link node'),
});

const quoteNode = typed(yup.object()).shape({
  type: nodeType('quote'),
  children: inlineChildren('Quote node children must have at least one Text or Link node'),
});

const codeNode = typed(yup.object()).shape({
  type: nodeType('code'),
  language: typed(yup.string()).nullable(),
  // Strapi's own words for a code block, a quote's
  children: typed(yup.array()).of(textNode).min(1, 'Quote node children must have at least one Text or Link node').required(),
});

const listItemNode = typed(yup.object()).shape({
  type: nodeType('list-item'),
  children: typed(yup.array()).of(inlineNode).required(),
});

/** a list's items: list items, or lists (nested to any depth) */
const listChildren: AnySchema = byType((type) => (type === 'list' ? listNode : type === 'list-item' ? listItemNode : invalid('Inline node must be list-item or list')));

const listNode: AnySchema = typed(yup.object()).shape({
  type: nodeType('list'),
  format: typed(yup.string()).equals(['ordered', 'unordered']).required(),
  children: typed(yup.array()).of(listChildren).min(1, 'List node children must have at least one ListItem or ListNode').required(),
});

const imageNode = typed(yup.object()).shape({
  type: nodeType('image'),
  image: typed(yup.object()).shape({
    name: typed(yup.string()).required(),
    alternativeText: typed(yup.string()).nullable(),
    url: typed(yup.string()).required(),
    caption: typed(yup.string()).nullable(),
    width: typed(yup.number()).required(),
    height: typed(yup.number()).required(),
    formats: typed(yup.object()).nullable(),
    hash: typed(yup.string()).required(),
    ext: typed(yup.string()).required(),
    mime: typed(yup.string()).required(),
    size: typed(yup.number()).required(),
    previewUrl: typed(yup.string()).nullable(),
    provider: typed(yup.string()).required(),
    provider_metadata: yup.mixed().nullable(),
    createdAt: typed(yup.string()).required(),
    updatedAt: typed(yup.string()).required(),
  }),
  children: typed(yup.array()).of(inlineNode).required(),
});

const BLOCK_NODES: Record<string, AnySchema> = { paragraph: paragraphNode, heading: headingNode, quote: quoteNode, list: listNode, image: imageNode, code: codeNode };

const blockNode = byType((type) => (typeof type === 'string' && Object.hasOwn(BLOCK_NODES, type) ? BLOCK_NODES[type] : invalid('Block node is of invalid type')));

/** a new schema each time: the attribute's own `required` and default are added to it */
export const blocksSchema = (): AnySchema => typed(yup.array()).of(blockNode);
