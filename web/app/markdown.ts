import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { Marked } from 'marked';

// The languages an answer about code mostly shows; the whole set would triple the app's bundle.
const LANGUAGES = { bash, css, diff, go, java, javascript, json, python, rust, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    // Raw HTML in an answer is shown as the text it is: a model has no business drawing on the page.
    html({ text, block }) {
      return block ? `<p>${escapeHtml(text.trim())}</p>` : escapeHtml(text);
    },
    code({ text, lang }) {
      const language = (lang ?? '').trim().split(/\s/)[0].toLowerCase();
      const known = language && hljs.getLanguage(language);
      const body = known ? hljs.highlight(text, { language, ignoreIllegals: true }).value : escapeHtml(text);
      const label = known ? `<span class="code-lang">${escapeHtml(language)}</span>` : '';
      return `<div class="code-block">${label}<button type="button" class="copy-code secondary small">Copy</button><pre tabindex="0"><code class="hljs">${body}</code></pre></div>`;
    },
  },
});

/**
 * An answer's Markdown as HTML that is safe to insert: marked renders it (code highlighted by highlight.js, raw
 * HTML as text), then DOMPurify drops whatever could still run, such as a `javascript:` link the model wrote (or
 * was tricked into writing).
 */
export function renderMarkdown(text: string): string {
  // A wide table scrolls sideways (.markdown table): focusable, so a keyboard can scroll it too.
  const rendered = marked.parse(text, { async: false }).replace(/<table>/g, '<table tabindex="0">');
  return DOMPurify.sanitize(rendered, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form'] });
}
