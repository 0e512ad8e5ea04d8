import { LocationConfigService } from '@/modules/location-config/location-config.service';
import { CapturingLogger } from '../../helpers/capturing-logger';
import { eventually } from '../../helpers/eventually';
import { gitRepo } from '../../helpers/git-repo';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';

jest.setTimeout(120_000);

/** A client's patience: what the fuzzer waited before it counted a request as unanswered. */
const PATIENCE_MS = 10_000;

/** A promise the test settles: `open()` lets whatever awaits it go on. */
function latch() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Where a held call has arrived (`reached`), and what lets it go on (`opened`). */
const gate = () => ({ reached: latch(), opened: latch() });

describe("a location's first load under concurrent requests", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const send = async (method: string, path: string) => {
    const started = performance.now();
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: { authorization: basic() },
      signal: AbortSignal.timeout(PATIENCE_MS),
    }).catch((error: Error) => ({ status: 0, text: async () => error.message }));
    return { method, path, status: res.status, ms: performance.now() - started };
  };

  it('a reload while a first load is being built: the requests waiting on that build are answered', async () => {
    const dir = gitRepo().root;
    const at = `location[directory]=${encodeURIComponent(dir)}`;
    // The first two reads of a config wait for the test: the first load's, then the reload's rebuild's.
    const configs = t.app.get(LocationConfigService);
    const read = configs.get.bind(configs);
    const gates = [gate(), gate()];
    const spy = jest.spyOn(configs, 'get');
    for (const { reached, opened } of gates) {
      spy.mockImplementationOnce(async (location) => {
        reached.open();
        await opened.promise;
        return read(location);
      });
    }
    // Requests as the server receives them: on a busy machine a request sent first can arrive after the reload.
    let arrived = 0;
    const count = (req: { url?: string }) => void (req.url?.startsWith('/api/agent/explore') && arrived++);
    t.app.getHttpServer().on('request', count);
    try {
      const first = Array.from({ length: 8 }, () => send('GET', `/api/agent/explore?${at}`));
      await gates[0].reached.promise;
      await eventually(
        () => arrived,
        (n) => n === 8,
      );
      // The reload drops the unfinished first build and starts its own, which waits at the second gate.
      const reload = send('POST', '/api/location/reload');
      await gates[1].reached.promise;
      // The first build finishes before the reload's: what waits on it must be answered.
      gates[0].opened.open();
      const answers = await Promise.all(first);
      gates[1].opened.open();
      expect([...answers, await reload].map((a) => a.status)).toEqual([
        200, 200, 200, 200, 200, 200, 200, 200, 204,
      ]);
    } finally {
      t.app.getHttpServer().off('request', count);
      for (const { opened } of gates) opened.open();
      spy.mockRestore();
    }
  });

  it('answers 8 at a time on fresh git directories, reloads among them, each well within the patience', async () => {
    const at = (dir: string) => `location[directory]=${encodeURIComponent(dir)}`;
    const routes = (dir: string): Array<[string, string]> => [
      ['GET', `/api/agent/explore?${at(dir)}`],
      ['GET', `/api/agent?${at(dir)}`],
      ['GET', `/api/plugin?${at(dir)}`],
      ['GET', `/api/location?${at(dir)}`],
      ['GET', `/api/command?${at(dir)}`],
      ['GET', `/api/provider?${at(dir)}`],
      ['POST', '/api/location/reload'],
    ];
    const jobs = Array.from({ length: 12 }, () => gitRepo().root).flatMap((dir) =>
      Array.from({ length: 4 }, () => routes(dir)).flat(),
    );
    const answers: Array<Awaited<ReturnType<typeof send>>> = [];
    let next = 0;
    const worker = async () => {
      while (next < jobs.length) {
        const [method, path] = jobs[next++];
        answers.push(await send(method, path));
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    const unanswered = answers.filter((a) => a.status === 0 || a.status >= 500);
    expect(unanswered).toEqual([]);
    expect(answers).toHaveLength(jobs.length);
  });
});

describe('a location that takes longer than OUTPOST_LOCATION_LOAD_TIMEOUT_MS to load', () => {
  let t: TestApp;
  const logs = new CapturingLogger();

  beforeAll(async () => {
    t = await createTestApp({ env: { OUTPOST_LOCATION_LOAD_TIMEOUT_MS: '500' } });
    t.app.useLogger(logs);
  });
  afterAll(() => t.close());

  it('is a 503 ServiceUnavailableError naming it, logged with the request id; the load goes on for the next request', async () => {
    const dir = gitRepo().root;
    const configs = t.app.get(LocationConfigService);
    const read = configs.get.bind(configs);
    const stuck = gate();
    const spy = jest.spyOn(configs, 'get').mockImplementationOnce(async (location) => {
      stuck.reached.open();
      await stuck.opened.promise;
      return read(location);
    });
    try {
      const at = `location[directory]=${encodeURIComponent(dir)}`;
      const res = await fetch(`${t.url}/api/agent?${at}`, {
        headers: { authorization: basic(), 'x-request-id': 'req-stuck-location' },
        signal: AbortSignal.timeout(PATIENCE_MS),
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(await res.json()).toEqual({
        _tag: 'ServiceUnavailableError',
        message: `Loading the location ${dir} took longer than 500 ms; try again`,
        service: 'location',
        location: { directory: dir },
      });
      const line = logs.warnings.find((w) => w.includes('deadline exceeded'));
      expect(line).toContain(res.headers.get('x-request-id')!);
      expect(line).toContain(dir);

      stuck.opened.open();
      const next = await fetch(`${t.url}/api/agent/explore?${at}`, { headers: { authorization: basic() } });
      expect(next.status).toBe(200);
    } finally {
      stuck.opened.open();
      spy.mockRestore();
    }
  });
});
