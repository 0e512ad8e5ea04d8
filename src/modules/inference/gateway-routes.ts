/** One model serving a route, with its share of the traffic. */
export interface Deployment {
  model: string;
  weight: number;
}

/**
 * A name callers put in `model`, served by `deployments` (balanced by weight and load; a failing one sits out
 * `cooldownMs`) and, once every deployment failed or the conversation is too long for them, `fallbacks` in order.
 */
export interface Route {
  name: string;
  deployments: Deployment[];
  fallbacks: string[];
  cooldownMs: number;
  /** How long a deployment may take to start answering before it counts as failed. */
  timeoutMs: number;
}

type Fail = (problem: string) => never;

const ROUTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,199}$/;

function seconds(value: unknown, fallback: number, where: string, fail: Fail): number {
  if (value === undefined) return fallback * 1000;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 3600)
    fail(`${where} must be a number of seconds from 0 to 3600`);
  return Math.round(value * 1000);
}

/**
 * The catalogue's `routes` map, e.g.
 * `smart: { deployments: [openai/gpt-4o, { model: azure/gpt-4o, weight: 2 }], fallbacks: [anthropic/claude] }`.
 * Every model must be in the catalogue, and all of a route's models speak one API schema (a route is called on one
 * API's route).
 */
export function parseRoutes(
  raw: unknown,
  models: ReadonlyMap<string, { provider: string }>,
  providers: ReadonlyMap<string, { schema: string }>,
  fail: Fail,
): Map<string, Route> {
  const routes = new Map<string, Route>();
  if (raw === undefined || raw === null) return routes;
  if (typeof raw !== 'object' || Array.isArray(raw)) fail('routes must be a map of route names');
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const where = `routes.${name}`;
    if (!ROUTE_NAME.test(name)) fail(`${where}: a route name is letters, digits, ".", "_", ":", "/" or "-"`);
    if (models.has(name)) fail(`${where}: a model of the catalogue already has this name`);
    const entry = (value ?? {}) as Record<string, unknown>;
    const known = (model: unknown, at: string): string => {
      if (typeof model !== 'string' || !models.has(model))
        fail(`${at} must name a catalogue model (<provider>/<model>)`);
      return model as string;
    };
    if (!Array.isArray(entry.deployments) || entry.deployments.length === 0)
      fail(`${where}.deployments must list at least one model`);
    const deployments = (entry.deployments as unknown[]).map((item, index) => {
      const at = `${where}.deployments.${index}`;
      if (typeof item === 'string') return { model: known(item, at), weight: 1 };
      const { model, weight = 1 } = (item ?? {}) as { model?: unknown; weight?: unknown };
      if (typeof weight !== 'number' || !Number.isFinite(weight) || weight <= 0 || weight > 1000)
        fail(`${at}.weight must be a number from 0 to 1000`);
      return { model: known(model, `${at}.model`), weight: weight as number };
    });
    const fallbacks = entry.fallbacks ?? [];
    if (!Array.isArray(fallbacks)) fail(`${where}.fallbacks must be a list of models`);
    const route: Route = {
      name,
      deployments,
      fallbacks: (fallbacks as unknown[]).map((model, index) => known(model, `${where}.fallbacks.${index}`)),
      cooldownMs: seconds(entry.cooldown_seconds, 30, `${where}.cooldown_seconds`, fail),
      timeoutMs: seconds(entry.timeout_seconds, 120, `${where}.timeout_seconds`, fail),
    };
    const schemas = new Set(
      [...route.deployments.map((d) => d.model), ...route.fallbacks].map(
        (model) => providers.get(models.get(model)!.provider)!.schema,
      ),
    );
    if (schemas.size > 1) fail(`${where}: its models speak different APIs (${[...schemas].join(', ')})`);
    routes.set(name, route);
  }
  return routes;
}
