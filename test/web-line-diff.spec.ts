import { lineDiff } from '../web/app/diff';

describe("lineDiff (the web app's edit view)", () => {
  it('keeps shared lines and shows a changed one removed, then added', () => {
    expect(lineDiff('a\nb\nc', 'a\nB\nc')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'B' },
      { kind: 'same', text: 'c' },
    ]);
  });

  it('finds lines moved apart by an insertion as shared', () => {
    const lines = lineDiff('one\ntwo\nthree', 'zero\none\ntwo\nthree');
    expect(lines.filter((line) => line.kind !== 'same')).toEqual([{ kind: 'added', text: 'zero' }]);
  });

  it('an empty text is one empty line, as the editor shows it', () => {
    expect(lineDiff('', 'x')).toEqual([
      { kind: 'removed', text: '' },
      { kind: 'added', text: 'x' },
    ]);
  });
});
