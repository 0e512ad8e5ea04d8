/**
 * Server-rendered pages: no scripts, no external assets, the same stylesheet as the web app and the console's app
 * pages. On a phone (600 px and less) a table's rows become cards: each cell on its own line, named by its
 * `data-label`.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text and attribute values are always escaped; only `Html` passes through. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export function escape(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

/** A tagged template that escapes every interpolated value except nested `html` fragments (and arrays of them). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  values.forEach((value, i) => {
    const parts = Array.isArray(value) ? value : [value];
    out += parts.map((part) => (part instanceof Html ? part.value : escape(part))).join('') + strings[i + 1];
  });
  return new Html(out);
}

/** The one stylesheet of every Outpost page (web/shared/style.css, copied by `npm run build`). */
const STYLESHEET = '/web/style.css';

/** The icon every page links to (browsers also ask for `/favicon.ico` on their own: the same file). */
export const FAVICON = '/web/favicon.svg';

export interface PageOptions {
  title: string;
  /** The signed-in person's email, shown in the header with a sign-out button. */
  signedInAs?: { email: string; csrf: string };
  error?: string;
  notice?: string;
  /** Pages with wide tables (the console app) use more of the screen. */
  wide?: boolean;
}

export function page(options: PageOptions, body: Html): string {
  const account = options.signedInAs
    ? html`<nav aria-label="Account">
        <span class="muted small">Signed in as ${options.signedInAs.email}</span>
        <a href="/console">Your console</a>
        <form method="post" action="/console/logout">
          ${csrfField(options.signedInAs.csrf)} <button type="submit" class="secondary">Sign out</button>
        </form>
      </nav>`
    : html``;
  const error = options.error ? html`<p class="error" role="alert">${options.error}</p>` : html``;
  const notice = options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : html``;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(options.title)} · Outpost</title><link rel="icon" href="${FAVICON}" type="image/svg+xml"><link rel="stylesheet" href="${STYLESHEET}"></head>
<body><header class="console-top"><a class="brand" href="/console">Outpost</a>${account.value}</header>
<main class="console-main${options.wide ? ' wide' : ''}"><h1>${escape(options.title)}</h1>${error.value}${notice.value}${body.value}</main></body></html>`;
}

export function csrfField(token: string): Html {
  return html`<input type="hidden" name="csrf" value="${token}" />`;
}
