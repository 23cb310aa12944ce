/** prom-client's default collectors, one module each (`collectDefaultMetrics` can only register all of them). */
declare module 'prom-client/lib/metrics/*' {
  import type { Registry } from 'prom-client';

  const collect: (registry: Registry, config: object) => void;
  export = collect;
}
