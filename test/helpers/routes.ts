import { INestApplication } from '@nestjs/common';

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** Every route the app registered with Express, as `{ method, path }` with path parameters filled in. */
export function registeredRoutes(app: INestApplication): Array<{ method: string; path: string }> {
  const express = app.getHttpAdapter().getInstance() as { router: { stack: Layer[] } };
  return express.router.stack.flatMap((layer) =>
    layer.route
      ? Object.keys(layer.route.methods)
          .filter((method) => method !== '_all')
          .map((method) => ({ method, path: layer.route!.path.replace(/:(\w+)/g, 'x_$1') }))
      : [],
  );
}
