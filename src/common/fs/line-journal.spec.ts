import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LineJournal } from './line-journal';

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A pid no process has (above Linux's pid_max), as a killed writer's. */
const DEAD_PID = 4_194_305;

describe('LineJournal', () => {
  let dir: string;
  const failed = jest.fn();
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'line-journal-'));
  });

  it("writes a turn's lines in one write, before the next turn", async () => {
    const journal = new LineJournal(dir, 'node_a', failed);
    journal.append('one');
    journal.append('two');
    const written = journal.written();
    expect(readdirSync(dir)).toEqual([]);
    await written;
    expect(readFileSync(join(dir, `node_a.${process.pid}.0.jsonl`), 'utf8')).toBe('one\ntwo\n');
    journal.remove();
  });

  it('a folder that cannot be used is said once and throws nowhere: not on write, cut, release or remove', async () => {
    const file = join(dir, 'not-a-folder');
    writeFileSync(file, 'x');
    const said = jest.fn();
    const journal = new LineJournal(file, 'node_a', said);
    journal.append('one');
    await journal.written();
    const cut = journal.cut();
    journal.append('two');
    await journal.written();
    expect(() => journal.release(cut)).not.toThrow();
    expect(() => journal.remove()).not.toThrow();
    expect(said).toHaveBeenCalledTimes(1);
    expect(readFileSync(file, 'utf8')).toBe('x');
  });

  it('after a cut, release deletes what came before it and keeps what came after', async () => {
    const journal = new LineJournal(dir, 'node_a', failed);
    journal.append('before');
    await journal.written();
    const cut = journal.cut();
    journal.append('after');
    await journal.written();
    expect(readdirSync(dir).sort()).toEqual([
      `node_a.${process.pid}.0.jsonl`,
      `node_a.${process.pid}.1.jsonl`,
    ]);
    journal.release(cut);
    expect(readdirSync(dir)).toEqual([`node_a.${process.pid}.1.jsonl`]);
    expect(readFileSync(join(dir, `node_a.${process.pid}.1.jsonl`), 'utf8')).toBe('after\n');
    journal.remove();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a release covers every earlier cut whose batch failed', async () => {
    const journal = new LineJournal(dir, 'node_a', failed);
    journal.append('a');
    await journal.written();
    journal.cut(); // its batch failed: nothing released
    journal.append('b');
    await journal.written();
    const second = journal.cut();
    journal.append('c');
    await journal.written();
    journal.release(second);
    expect(readdirSync(dir)).toEqual([`node_a.${process.pid}.2.jsonl`]);
    journal.remove();
  });

  it("finds a dead process's segments as one journal, in order, and discards them together", async () => {
    writeFileSync(join(dir, `node_dead.${DEAD_PID}.10.jsonl`), 'third\n');
    writeFileSync(join(dir, `node_dead.${DEAD_PID}.2.jsonl`), 'second\n');
    writeFileSync(join(dir, `node_dead.${DEAD_PID}.jsonl`), 'first\n'); // an earlier version's name
    const live = new LineJournal(dir, 'node_live', failed);
    live.append('mine');
    await turn();
    const other = new LineJournal(dir, 'node_other', failed);
    const leftovers = other.leftovers();
    expect(leftovers).toHaveLength(1); // not node_live's: it is open in this process
    expect(leftovers[0].nodeId).toBe('node_dead');
    expect(leftovers[0].lines).toEqual(['first', 'second', 'third']);
    other.discard(leftovers[0]);
    expect(readdirSync(dir)).toEqual([`node_live.${process.pid}.0.jsonl`]);
    live.keep();
    // Kept and closed, it is a leftover now (in-process apps share the pid).
    expect(other.leftovers().map((leftover) => leftover.lines)).toEqual([['mine']]);
    other.remove();
    expect(existsSync(join(dir, `node_live.${process.pid}.0.jsonl`))).toBe(true);
  });

  it('named for its lines (.copy), it still reads the .jsonl segments an earlier version left', async () => {
    writeFileSync(join(dir, `node_old.${DEAD_PID}.0.jsonl`), 'old\n');
    writeFileSync(join(dir, `node_new.${DEAD_PID}.0.copy`), 'new\n');
    const journal = new LineJournal(dir, 'node_c', failed, 'copy');
    journal.append('mine');
    await journal.written();
    expect(existsSync(join(dir, `node_c.${process.pid}.0.copy`))).toBe(true);
    const leftovers = journal.leftovers().sort((a, b) => a.nodeId.localeCompare(b.nodeId));
    expect(leftovers.map(({ nodeId, lines }) => ({ nodeId, lines }))).toEqual([
      { nodeId: 'node_new', lines: ['new'] },
      { nodeId: 'node_old', lines: ['old'] },
    ]);
    journal.remove();
  });
});
