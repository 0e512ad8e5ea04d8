import { lineDiff } from '../diff';

/** An edit as a diff: removed lines red with `-`, added lines green with `+`. */
export function Diff({ before, after, file }: { before: string; after: string; file?: string }) {
  const lines = lineDiff(before, after);
  return (
    <figure class="diff">
      {file && <figcaption>{file}</figcaption>}
      <pre aria-label={file ? `Changes to ${file}` : 'Changes'}>
        {lines.map((line, i) => (
          <div key={i} class={`diff-${line.kind}`}>
            <span class="diff-sign" aria-hidden="true">
              {line.kind === 'added' ? '+' : line.kind === 'removed' ? '-' : ' '}
            </span>
            {line.kind !== 'same' && (
              <span class="sr-only">{line.kind === 'added' ? 'added: ' : 'removed: '}</span>
            )}
            {line.text}
          </div>
        ))}
      </pre>
    </figure>
  );
}
