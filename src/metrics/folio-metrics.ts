import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { collectProcessMetrics } from './process-metrics';

/**
 * What `/metrics` reports (`server.metrics`), in prom-client's registry of this instance (never the global
 * one: two Folio instances in a process keep their figures apart). Each front records into it: the HTTP
 * front per answer, the envelop pipeline per operation, the store per call.
 */

export type Surface = 'graphql' | 'rest' | 'other';

export interface FolioMetrics {
  registry: Registry;
  /** every HTTP answer, by surface and status */
  httpRequests: Counter<'surface' | 'status'>;
  httpDuration: Histogram<'surface'>;
  /** every operation the pipeline executes (REST's compiled ones included), by surface, operation and status */
  operations: Counter<'surface' | 'operation' | 'status'>;
  operationDuration: Histogram<'surface' | 'operation'>;
  storeDuration: Histogram<'collection' | 'method'>;
  activeConnections: Gauge;
  /** answers with 429 (the sign-in limit, and any plugin that answers so) */
  rateLimitRefusals: Counter<'surface'>;
  /** a client-chosen operation name as a label, or `other` once `MAX_OPERATION_LABELS` are in use: series stay bounded */
  operationLabel(name: string): string;
  /** stops what runs between scrapes (the event-loop monitor, the GC observer): once the server has closed */
  stop(): void;
}

const MAX_OPERATION_LABELS = 500;
/** seconds: from a cached read to a slow write */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const STORE_BUCKETS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5];

export const createFolioMetrics = (): FolioMetrics => {
  const registry = new Registry();
  const processMetrics = collectProcessMetrics(registry);
  const registers = [registry];
  const labels = new Set<string>();
  return {
    registry,
    httpRequests: new Counter({ name: 'folio_http_requests_total', help: 'HTTP answers by surface and status', labelNames: ['surface', 'status'], registers }),
    httpDuration: new Histogram({ name: 'folio_http_request_duration_seconds', help: 'Time to answer an HTTP request', labelNames: ['surface'], buckets: LATENCY_BUCKETS, registers }),
    operations: new Counter({
      name: 'folio_operations_total',
      help: 'Operations executed, by surface, operation (GraphQL operation name or root fields; REST: the root field it compiles to) and status',
      labelNames: ['surface', 'operation', 'status'],
      registers,
    }),
    operationDuration: new Histogram({ name: 'folio_operation_duration_seconds', help: 'Time to execute an operation', labelNames: ['surface', 'operation'], buckets: LATENCY_BUCKETS, registers }),
    storeDuration: new Histogram({ name: 'folio_store_call_duration_seconds', help: 'Time of a store call, by collection and method', labelNames: ['collection', 'method'], buckets: STORE_BUCKETS, registers }),
    activeConnections: new Gauge({ name: 'folio_active_connections', help: 'Open client connections (HTTP and WebSocket)', registers }),
    rateLimitRefusals: new Counter({ name: 'folio_rate_limit_refusals_total', help: 'Requests refused with 429, by surface', labelNames: ['surface'], registers }),
    operationLabel(name) {
      if (labels.has(name)) return name;
      if (labels.size >= MAX_OPERATION_LABELS) return 'other';
      labels.add(name);
      return name;
    },
    stop: () => processMetrics.stop(),
  };
};
