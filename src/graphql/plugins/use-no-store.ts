import type { Plugin } from 'graphql-yoga';

/**
 * `Cache-Control: no-store` on every GraphQL answer, as Strapi's (Apollo Server's) carry: an answer
 * depends on the caller's credentials, so no shared cache may keep one, GET queries included.
 */
export const useNoStore = (): Plugin => ({
  onResponse({ response }) {
    response.headers.set('cache-control', 'no-store');
  },
});
