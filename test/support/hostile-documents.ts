/** 2^depth paths through `depth` fragments, each spreading the one before twice, in about 50 bytes a fragment */
export const fragmentFanOut = (depth: number, leaf = 'name', operation = '') => {
  const fragments = Array.from({ length: depth }, (_, index) => `fragment F${index + 1} on Tag { ...F${index} ...F${index} }`);
  return `query ${operation} { tags(pagination: { limit: 1 }) { ...F${depth} } } fragment F0 on Tag { ${leaf} } ${fragments.join(' ')}`;
};
