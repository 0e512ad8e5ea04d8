import { Html, html } from '@/common/http/html';

interface AppPage {
  path: string;
  title: string;
  /** A page inside another's tab (the app draws their sub-navigation). */
  under?: string;
}

/** The pages of the console app (web/console): one shell, the app draws the page named by the path. */
export const APP_PAGES: readonly AppPage[] = [
  { path: 'keys', title: 'Keys' },
  { path: 'members', title: 'Members' },
  { path: 'budgets', title: 'Budgets' },
  { path: 'usage', title: 'Usage' },
  { path: 'usage/requests', title: 'Requests', under: 'usage' },
  { path: 'settings', title: 'Settings' },
  { path: 'audit', title: 'Audit log' },
  { path: 'devices', title: 'Devices' },
];

/** The console's navigation, on the app pages and the overview. */
export function consoleNav(current?: string): Html {
  const tab = APP_PAGES.find((item) => item.path === current)?.under ?? current;
  const link = (href: string, label: string, name: string | undefined) =>
    html`<a href="${href}" ${name === tab ? html`aria-current="page"` : html``}>${label}</a>`;
  return html`<nav class="tabs" aria-label="Console">
    ${link('/console', 'Overview', 'overview')}
    ${APP_PAGES.filter((item) => !item.under).map((item) =>
      link(`/console/${item.path}`, item.title, item.path),
    )}
  </nav>`;
}

/** The app's mount point; without JavaScript the page says what it needs. */
export function appBody(pagePath: string): Html {
  return html`${consoleNav(pagePath)}
    <div id="app" data-page="${pagePath}"><p>Loading…</p></div>
    <noscript><p class="error">This page needs JavaScript.</p></noscript>
    <script type="module" src="/web/console/main.js"></script>`;
}
