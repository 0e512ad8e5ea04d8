import TurndownService from 'turndown';

/** Never part of what a reader sees. */
const HIDDEN: string[] = ['script', 'style', 'noscript', 'template', 'iframe', 'head'];

function service(): TurndownService {
  return new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' }).remove(
    [...HIDDEN],
  );
}

const markdown = service();

/**
 * The same parse with every element reduced to its text (a block on lines of its own) and nothing escaped:
 * turndown marks block elements itself (`isBlock`), so no tag list is kept here.
 */
const text = service().addRule('text only', {
  // Rules added come before `remove`, so the hidden elements are left out here too.
  filter: (node) => !HIDDEN.includes(node.nodeName.toLowerCase()),
  replacement: (content, node) => ((node as { isBlock?: boolean }).isBlock ? `\n\n${content}\n\n` : content),
});
text.escape = (chars: string) => chars;

/** A fetched HTML page as the model asked for it: Markdown, plain text, or the HTML itself. */
export function pageText(html: string, format: 'text' | 'markdown' | 'html'): string {
  if (format === 'html') return html;
  const converted = (format === 'markdown' ? markdown : text).turndown(html);
  return format === 'text' ? converted.replace(/\n{3,}/g, '\n\n').trim() : converted;
}
