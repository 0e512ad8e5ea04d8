/**
 * Typed clients of Outpost's two APIs for the web pages: openapi-fetch over the types `npm run api:generate`
 * writes from /docs/instance.json and /docs/console.json, so a page that uses a route or a field the documents
 * do not have fails `npm run typecheck`. Same origin only; the browser sends the sign-in cookie.
 */
import createClient from 'openapi-fetch';
import type { components as ConsoleComponents, paths as ConsolePaths } from './console';
import type { components as InstanceComponents, paths as InstancePaths } from './instance';

export type ConsoleSchemas = ConsoleComponents['schemas'];
export type InstanceSchemas = InstanceComponents['schemas'];

export function consoleClient(baseUrl = location.origin) {
  return createClient<ConsolePaths>({ baseUrl, credentials: 'same-origin' });
}

export function instanceClient(baseUrl = location.origin) {
  return createClient<InstancePaths>({ baseUrl, credentials: 'same-origin' });
}
