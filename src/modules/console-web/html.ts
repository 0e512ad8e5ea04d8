/**
 * Server-rendered pages: no scripts, no external assets, one inline stylesheet (allowed by the CSP). On a phone
 * (600 px and less) a table's rows become cards: each cell on its own line, named by its `data-label`.
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

const STYLE = `
body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b;line-height:1.5}
h1{font-size:1.5rem}label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input[type=text],input[type=email],input[type=password]{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{padding:.5rem 1rem;font-size:1rem;margin:.75rem .5rem 0 0;cursor:pointer}
.code{font-family:ui-monospace,monospace;font-size:2rem;letter-spacing:.2rem;padding:.25rem .75rem;border:2px solid #444;display:inline-block}
.error{color:#a40000;border-left:4px solid #a40000;padding-left:.75rem}.notice{border-left:4px solid #05610f;padding-left:.75rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem;border-bottom:1px solid #ddd}
fieldset{border:1px solid #ccc;margin-top:1rem}fieldset label{display:inline;font-weight:400}
nav form{display:inline}
body.wide{max-width:72rem}.tabs{display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:1rem 0;padding:.5rem 0;border-bottom:1px solid #ddd}
.tabs a[aria-current=page]{font-weight:700;color:#1b1b1b;text-decoration:none}
select,input[type=date],input[type=month],input[type=number],input[type=url],textarea{padding:.45rem;font-size:1rem;max-width:100%;box-sizing:border-box}
textarea{width:100%;font-family:ui-monospace,monospace;font-size:.9rem}
.row{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end}.row label{margin-top:0}.row button{margin-top:0}
.panel{border:1px solid #ccc;border-radius:6px;padding:.25rem 1rem 1rem;margin:1rem 0}
.secret{font-family:ui-monospace,monospace;word-break:break-all;background:#f4f4f4;padding:.5rem;border:1px solid #ccc}
.muted{color:#555}.small{font-size:.9rem}.danger{color:#fff;background:#a40000;border:1px solid #a40000}
.bar{background:#e6e6e6;height:.6rem;min-width:6rem;border-radius:3px;overflow:hidden}.bar>span{display:block;height:100%;background:#2f5bd3}
.bar.over>span{background:#a40000}.scroll{overflow-x:auto}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
@media (max-width:600px){body{margin:1rem auto}th,td{padding:.3rem .25rem;font-size:.9rem}
table,tbody,tr,td{display:block}thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
tr{border-bottom:1px solid #ddd;padding:.35rem 0}td{border:0;display:flex;gap:.75rem;overflow-wrap:anywhere}
td[data-label]::before{content:attr(data-label);flex:0 0 7.5rem;font-weight:600;color:#555}td>*{min-width:0}
td button,td form{margin-top:.25rem}}`;

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
  const nav = options.signedInAs
    ? html`<nav aria-label="Account">
        Signed in as ${options.signedInAs.email}.
        <a href="/console">Your console</a>
        <form method="post" action="/console/logout">
          ${csrfField(options.signedInAs.csrf)} <button type="submit">Sign out</button>
        </form>
      </nav>`
    : html``;
  const error = options.error ? html`<p class="error" role="alert">${options.error}</p>` : html``;
  const notice = options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : html``;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(options.title)} · Outpost</title><link rel="icon" href="${FAVICON}" type="image/svg+xml"><style>${STYLE}</style></head>
<body${options.wide ? ' class="wide"' : ''}><header>${nav.value}</header><main><h1>${escape(options.title)}</h1>${error.value}${notice.value}${body.value}</main></body></html>`;
}

export function csrfField(token: string): Html {
  return html`<input type="hidden" name="csrf" value="${token}" />`;
}
