import { useEffect, useState } from 'preact/hooks';

/**
 * Routes live in the hash (`/#/session/<id>`): the paths of this origin belong to the APIs (opencode's routes
 * include `/session`), so the app never owns one beyond `/`.
 */
export type Route =
  | { name: 'sessions' }
  | { name: 'session'; id: string }
  | { name: 'server' }
  | { name: 'models' }
  | { name: 'mcp' }
  | { name: 'not-found'; hash: string };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '') || '/';
  if (path === '/' || path === '/sessions') return { name: 'sessions' };
  if (path === '/server') return { name: 'server' };
  if (path === '/models') return { name: 'models' };
  if (path === '/mcp') return { name: 'mcp' };
  const session = /^\/session\/(ses_[0-9A-Za-z]+)$/.exec(path);
  if (session) return { name: 'session', id: session[1] };
  return { name: 'not-found', hash: path };
}

export function href(route: Route): string {
  switch (route.name) {
    case 'sessions':
      return '#/';
    case 'session':
      return `#/session/${route.id}`;
    case 'server':
      return '#/server';
    case 'models':
      return '#/models';
    case 'mcp':
      return '#/mcp';
    default:
      return '#/';
  }
}

export function navigate(route: Route): void {
  location.hash = href(route);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const changed = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}
