import { INestApplication } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';

const recorded = new WeakMap<INestApplication, Array<{ method: string; path: string }>>();

/** Starts recording the routes Fastify registers; call before the app is initialised. */
export function recordRoutes(app: INestApplication): void {
  const routes: Array<{ method: string; path: string }> = [];
  recorded.set(app, routes);
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routes.push({ method: method.toLowerCase(), path: route.url.replace(/:(\w+)/g, 'x_$1') });
    }
  });
}

/** Every route the app registered, as `{ method, path }` with path parameters filled in. */
export function registeredRoutes(app: INestApplication): Array<{ method: string; path: string }> {
  const routes = recorded.get(app);
  if (!routes) throw new Error('routes were not recorded for this app');
  return routes;
}
