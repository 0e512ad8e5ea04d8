import { unifiedDiff } from './diff';

const HEADER = 'Index: f.ts\n' + '='.repeat(67) + '\n--- f.ts\n+++ f.ts\n';

describe('unifiedDiff', () => {
  it('shows a changed line with three lines of context and counts it', () => {
    const before = ['1', '2', '3', '4', '5', '6', '7', '8', ''].join('\n');
    const after = before.replace('5', 'five');
    expect(unifiedDiff('f.ts', before, after)).toEqual({
      diff: `${HEADER}@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n`,
      additions: 1,
      deletions: 1,
    });
  });

  it('a new file is one hunk of added lines', () => {
    expect(unifiedDiff('f.ts', '', 'x\ny\n')).toEqual({
      diff: `${HEADER}@@ -0,0 +1,2 @@\n+x\n+y\n`,
      additions: 2,
      deletions: 0,
    });
  });

  it('changes far apart are hunks of their own; the unchanged middle is not repeated', () => {
    const before = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const after = before.replace('line 2\n', 'line two\n').replace('line 27\n', 'line twenty-seven\n');
    const { diff, additions, deletions } = unifiedDiff('f.ts', before, after);
    expect(diff.match(/^@@ /gm)).toHaveLength(2);
    expect(diff).not.toContain('line 15');
    expect([additions, deletions]).toEqual([2, 2]);
  });

  it('no change is the header alone', () => {
    expect(unifiedDiff('f.ts', 'same\n', 'same\n')).toEqual({ diff: HEADER, additions: 0, deletions: 0 });
  });

  it('says when the new text has no newline at its end', () => {
    expect(unifiedDiff('f.ts', '', 'x').diff).toBe(
      `${HEADER}@@ -0,0 +1,1 @@\n+x\n\\ No newline at end of file\n`,
    );
  });
});
