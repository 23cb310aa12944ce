import { takePublishedAt } from '../../src/rest-compiler/published-at';
import { parsePublicationState } from '../../src/rest-compiler/rest-scope';
import { errorOf } from './rest-schema';

describe('takePublishedAt', () => {
  const body = (publishedAt: unknown) => ({ data: { title: 'x', publishedAt } });

  test('without the v4 header: taken out of data and ignored, as Strapi 5 does', () => {
    expect(takePublishedAt(body(null), false)).toEqual({ body: { data: { title: 'x' } } });
    expect(takePublishedAt(body('not a date'), false)).toEqual({ body: { data: { title: 'x' } } });
  });

  test('under v4: null writes a draft, a date publishes, anything else is a 400 naming publishedAt', () => {
    expect(takePublishedAt(body(null), true)).toEqual({ body: { data: { title: 'x' } }, status: 'DRAFT' });
    expect(takePublishedAt(body('2024-05-01T10:00:00.000Z'), true)).toEqual({ body: { data: { title: 'x' } }, status: 'PUBLISHED' });
    expect(errorOf(() => takePublishedAt(body(5), true))).toMatchObject({ name: 'ValidationError', details: { errors: [{ path: ['publishedAt'] }] } });
  });

  test('a body without publishedAt, or not shaped as { data }, is left as it is', () => {
    const plain = { data: { title: 'x' } };
    expect(takePublishedAt(plain, true).body).toBe(plain);
    expect(takePublishedAt('nope', true)).toEqual({ body: 'nope' });
  });
});

describe('parsePublicationState', () => {
  test('preview reads drafts, live the published versions; anything else is a 400', () => {
    expect(parsePublicationState('preview')).toBe('DRAFT');
    expect(parsePublicationState('live')).toBe('PUBLISHED');
    expect(parsePublicationState(undefined)).toBeUndefined();
    expect(errorOf(() => parsePublicationState('all'))).toMatchObject({ name: 'ValidationError', details: { param: 'publicationState' } });
  });
});
