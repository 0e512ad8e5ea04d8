import { useMemo } from 'preact/hooks';
import { renderMarkdown } from '../markdown';

/** Copies a code block's text; the button says whether it worked. */
async function copyCode(button: HTMLButtonElement): Promise<void> {
  const code = button.parentElement?.querySelector('code')?.textContent ?? '';
  try {
    await navigator.clipboard.writeText(code);
    button.textContent = 'Copied';
  } catch {
    button.textContent = 'Copy failed';
  }
  setTimeout(() => (button.textContent = 'Copy'), 2000);
}

/** Text written in Markdown (an answer, a reasoning), rendered and sanitised; code blocks have a Copy button. */
export function Markdown({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return (
    <div
      class="markdown"
      onClick={(event) => {
        const button = (event.target as Element).closest<HTMLButtonElement>('button.copy-code');
        if (button) void copyCode(button);
      }}
      // Sanitised by DOMPurify in renderMarkdown.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
