import { escape, FAVICON } from '@/common/http/html';

/** The web app's stylesheet (the shared look and the app's own rules, bundled by `npm run build`). */
export const APP_STYLESHEET = '/web/app/main.css';

/**
 * A page in the look of the web app, without its script: the document the app starts from, and the few pages the
 * server answers itself (a used pairing link). `body` is trusted HTML.
 */
export function webPage(title: string, body: string, script?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(title)}</title><link rel="icon" href="${FAVICON}" type="image/svg+xml"><link rel="stylesheet" href="${APP_STYLESHEET}">
${script ? `<script type="module" src="${escape(script)}"></script>` : ''}</head>
<body>${body}</body></html>
`;
}

/** The instance web app: an empty page its script fills (routes are in the hash: `/#/session/<id>`). */
export function appShell(): string {
  return webPage(
    'Outpost',
    '<div id="app"><main class="app-loading" aria-busy="true"><p class="muted">Loading Outpost…</p></main></div>',
    '/web/app/main.js',
  );
}

/** A short page with a heading and a message in a panel, e.g. for a pairing link that can no longer be used. */
export function messagePage(title: string, paragraphs: string[]): string {
  return webPage(
    `${title} · Outpost`,
    `<main class="message-page"><div class="panel"><p class="brand">Outpost</p><h1>${escape(title)}</h1>${paragraphs
      .map((p) => `<p>${p}</p>`)
      .join('')}</div></main>`,
  );
}
