import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/**
 * The server's own Prometheus metrics: requests by route and status, their durations, and the request-body
 * bytes held now (`bodyBytesHeld`, read at each scrape).
 */
export const makeHttpMetrics = (registry: Registry = new Registry(), bodyBytesHeld?: () => number) => {
  // The standard Node process metrics under their usual names (process_*, nodejs_*), which stock dashboards
  // query; every metric of Veracity itself is named veracity_*.
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: "veracity_http_requests_total",
    help: "HTTP requests answered, by method, route and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: "veracity_http_request_duration_seconds",
    help: "Time to answer an HTTP request",
    labelNames: ["method", "route"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const inFlight = new Gauge({
    name: "veracity_http_requests_in_flight",
    help: "HTTP requests being answered now (what a graceful shutdown waits for)",
    registers: [registry],
  });
  if (bodyBytesHeld !== undefined)
    new Gauge({
      name: "veracity_http_body_bytes_held",
      help: "Request-body bytes reserved by requests being answered now (against --max-body-bytes-in-flight)",
      registers: [registry],
      collect() {
        this.set(bodyBytesHeld());
      },
    });
  const record: MiddlewareHandler = async (context, next) => {
    const started = performance.now();
    inFlight.inc();
    try {
      await next();
    } finally {
      inFlight.dec();
    }
    const route = routePath(context, -1) || "unmatched";
    requests.inc({ method: context.req.method, route, status: String(context.res.status) });
    durations.observe({ method: context.req.method, route }, (performance.now() - started) / 1000);
  };
  const render = async () => ({ contentType: registry.contentType, body: await registry.metrics() });
  return { registry, record, render };
};

/**
 * The counts of connections a server closed on arrival: past `--max-connections` (Node's own cap), and from an
 * address past `--max-connections-per-address` once half of them were open. `ops/prometheus/alerts.yml` alerts
 * on the two together.
 */
export const makeConnectionMetrics = (registry: Registry) => ({
  refused: new Counter({
    name: "veracity_http_connections_refused_total",
    help: "Connections closed on arrival because --max-connections were open",
    registers: [registry],
  }),
  refusedPerAddress: new Counter({
    name: "veracity_http_connections_refused_per_address_total",
    help: "Connections closed on arrival because their client address held --max-connections-per-address while half of --max-connections were open",
    registers: [registry],
  }),
});
