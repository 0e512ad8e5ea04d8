import {
  collectDefaultMetrics,
  Counter,
  CounterConfiguration,
  Gauge,
  Histogram,
  register,
} from 'prom-client';

/**
 * Outpost's Prometheus metrics, on prom-client's default registry (served at `/metrics`). Every name starts with
 * `outpost_`. Domains add gauges of their own state with `liveGauge`.
 */
let started = false;
export function startDefaultMetrics(): void {
  if (started) return;
  started = true;
  collectDefaultMetrics({ prefix: 'outpost_process_' });
}

/**
 * A counter whose increments are summed in plain numbers, one per label set, and handed to prom-client when
 * `/metrics` is read: prom-client hashes and checks the labels of every increment, and the gateway counts
 * several times per request (bench/gateway). The label sets are kept, as prom-client keeps them.
 */
export class Tally<L extends string> {
  private readonly pending = new Map<string, { labels: Record<L, string>; value: number }>();
  private readonly labelNames: readonly L[];

  constructor(config: CounterConfiguration<L>) {
    const pending = this.pending;
    this.labelNames = config.labelNames ?? [];
    new Counter<L>({
      ...config,
      collect() {
        for (const entry of pending.values()) {
          if (entry.value > 0) this.inc(entry.labels, entry.value);
          entry.value = 0;
        }
      },
    });
  }

  /** Adds `value` (1) to the count of `labels`. */
  add(labels: Record<L, string>, value = 1): void {
    let key = '';
    for (const name of this.labelNames) key += `${labels[name]}\n`;
    const entry = this.pending.get(key);
    if (entry) entry.value += value;
    else this.pending.set(key, { labels, value });
  }
}

export const httpRequests = new Tally({
  name: 'outpost_http_requests_total',
  help: 'HTTP requests answered, by route pattern, method and status.',
  labelNames: ['route', 'method', 'status'] as const,
});

export const httpDuration = new Histogram({
  name: 'outpost_http_request_duration_seconds',
  help: 'Time from the request to the end of its response, by route pattern and method.',
  labelNames: ['route', 'method'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
});

/** One request done: `route` is the pattern (`/api/session/:sessionID`), never the raw path with its ids. */
export function observeRequest(
  route: string | undefined,
  method: string,
  status: number,
  seconds: number,
): void {
  const pattern = route ?? '(unmatched)';
  httpRequests.add({ route: pattern, method, status: String(status) });
  httpDuration.observe({ route: pattern, method }, seconds);
}

/** A gauge read when `/metrics` is scraped; the last registration of a name wins (one app per process). */
export function liveGauge(name: string, help: string, read: () => number): void {
  register.removeSingleMetric(name);
  new Gauge({
    name,
    help,
    collect() {
      this.set(read());
    },
  });
}

export const gatewayRequests = new Tally({
  name: 'outpost_gateway_requests_total',
  help: 'Inference gateway requests forwarded or refused, by route schema, model and outcome.',
  labelNames: ['schema', 'model', 'outcome'] as const,
});

export const gatewayTokens = new Tally({
  name: 'outpost_gateway_tokens_total',
  help: 'Tokens metered by the inference gateway, by model and kind (input, output, cache_read, cache_write).',
  labelNames: ['model', 'kind'] as const,
});

export const gatewayCost = new Tally({
  name: 'outpost_gateway_cost_usd_total',
  help: 'Cost metered by the inference gateway in USD, by model.',
  labelNames: ['model'] as const,
});

export const gatewayAddedSeconds = new Histogram({
  name: 'outpost_gateway_added_seconds',
  help: "The gateway's own time before a request reaches the provider (key, budget hold), by schema.",
  labelNames: ['schema'] as const,
  buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1],
});
