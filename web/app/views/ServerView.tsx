import { useEffect, useState } from 'preact/hooks';
import { ApiError, client, ok } from '../api';
import { Bars, DayColumns } from '../components/BarChart';
import { Qr } from '../components/Qr';
import { formatCost, formatCount, sessionTitle, totalTokens } from '../format';
import { navigate } from '../router';
import { downloadExport } from '../transfer';
import { modelWords, type NamedModel, namedModels } from '../models';
import { ConsoleLink } from './ConsoleLink';
import type { InstanceSchemas } from '../../shared/api/client';
import type { PairingCode, ServerInfo, SessionInfo, SessionStatsInfo } from '../types';

/** A file's content goes to the server as it is: the server checks it (a 400 names what is wrong). */
type ImportBody = InstanceSchemas['ImportSessionDto'];

/** The server: pair another device, what it is, what it has done (stats), sessions in and out as files. */
export function ServerView() {
  return (
    <section aria-labelledby="server-title" class="server">
      <h1 id="server-title">Server</h1>
      <div class="grid">
        <Pairing />
        <Info />
      </div>
      <ConsoleLink />
      <Stats />
      <Transfer />
    </section>
  );
}

function Pairing() {
  const [code, setCode] = useState<PairingCode | null>(null);
  const [left, setLeft] = useState(0);
  const [error, setError] = useState('');
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!code) return;
    const ends = Date.now() + code.expires_in * 1000;
    const tick = () => setLeft(Math.max(0, Math.round((ends - Date.now()) / 1000)));
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [code]);
  const pair = async () => {
    setError('');
    setCopied(false);
    try {
      setCode(await ok(client.POST('/api/pair')));
    } catch (failure) {
      setError((failure as ApiError).message);
    }
  };
  const copy = async () => {
    if (!code) return;
    try {
      await navigator.clipboard.writeText(code.url);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <article class="panel" aria-labelledby="pair-title">
      <h2 id="pair-title">Pair another device</h2>
      <p class="muted">
        A link that signs one browser or client in, once, within minutes. Scan the code with a phone, or copy
        the link.
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {code && left > 0 ? (
        <div class="pairing">
          <Qr text={code.url} label="QR code of the pairing link" />
          <p>
            <input
              class="pair-link"
              aria-label="Pairing link"
              type="text"
              readOnly
              value={code.url}
              onFocus={(e) => e.currentTarget.select()}
            />
          </p>
          <p class="muted small" role="timer">
            Works once, for {Math.floor(left / 60)}:{String(left % 60).padStart(2, '0')} more.
          </p>
          <div class="actions">
            <button type="button" class="secondary" onClick={() => void copy()}>
              {copied ? 'Copied' : 'Copy link'}
            </button>
            <button type="button" class="secondary" onClick={() => void pair()}>
              New link
            </button>
          </div>
        </div>
      ) : (
        <button type="button" onClick={() => void pair()}>
          {code ? 'The link expired: make a new one' : 'Make a pairing link'}
        </button>
      )}
    </article>
  );
}

function Info() {
  const [info, setInfo] = useState<ServerInfo | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    void ok(client.GET('/api/info'))
      .then(setInfo)
      .catch((failure: ApiError) => setError(failure.message));
  }, []);
  return (
    <article class="panel" aria-labelledby="info-title">
      <h2 id="info-title">This server</h2>
      {error && <p class="error">{error}</p>}
      {info && (
        <dl class="facts">
          <dt>Version</dt>
          <dd>{info.version}</dd>
          <dt>Status</dt>
          <dd>{info.ready ? 'Ready' : 'Not ready'}</dd>
          <dt>Addresses</dt>
          <dd>
            {info.urls.map((url) => (
              <div key={url}>
                <code>{url}</code>
              </div>
            ))}
          </dd>
          <dt>Data folder</dt>
          <dd>
            <code>{info.paths.data}</code>
          </dd>
        </dl>
      )}
    </article>
  );
}

const RANGES = { '7': 'Last 7 days', '30': 'Last 30 days', '365': 'Last year' } as const;

/** The totals of the range, as numbers. */
function Totals({ stats }: { stats: SessionStatsInfo }) {
  const totals: Array<[string, string | number]> = [
    ['Sessions', stats.sessions],
    ['Prompts', stats.prompts],
    ['Steps', stats.steps],
    ['Tokens', formatCount(totalTokens(stats.tokens))],
    ['Cost', formatCost(stats.cost)],
    ['Active days', stats.activeDays],
  ];
  return (
    <dl class="totals">
      {totals.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Steps by model (with their cost) and calls by tool, as bars. */
function ModelsAndTools({ stats }: { stats: SessionStatsInfo }) {
  const tools = stats.tools.usage ?? [];
  // Models by name as the server's default location knows them (a console connection's, not its conn_… id).
  const [named, setNamed] = useState<NamedModel[]>([]);
  useEffect(() => {
    void namedModels().then(setNamed, () => setNamed([]));
  }, []);
  return (
    <div class="grid">
      <div>
        <h3>Models</h3>
        <Bars
          label="Cost by model"
          rows={stats.models.map((m) => ({
            key: `${m.model.providerID}/${m.model.id}`,
            label: modelWords(named, m.model.providerID, m.model.id),
            value: m.steps,
            shown: `${m.steps} steps · ${formatCost(m.cost)}`,
          }))}
        />
      </div>
      <div>
        <h3>Tools</h3>
        <Bars
          label="Tool calls"
          rows={tools.map((t) => ({
            key: t.name,
            label: t.name,
            value: t.calls,
            shown: `${t.calls} ${t.calls === 1 ? 'call' : 'calls'}${t.failed ? ` · ${t.failed} failed` : ''}`,
          }))}
        />
      </div>
    </div>
  );
}

function Stats() {
  const [days, setDays] = useState<keyof typeof RANGES>('30');
  const [stats, setStats] = useState<SessionStatsInfo | null>(null);
  const [error, setError] = useState('');
  const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  useEffect(() => {
    setError('');
    const from = Date.now() - Number(days) * 86_400_000;
    void ok(
      client.GET('/api/experimental/session/stats', {
        params: { query: { from: String(from), timezone, tools: 'detail' } },
      }),
    )
      .then((r) => setStats(r.data))
      .catch((failure: ApiError) => setError(failure.message));
  }, [days]);
  return (
    <article class="panel stats" aria-labelledby="stats-title">
      <div class="page-head">
        <h2 id="stats-title">Activity</h2>
        <label class="inline">
          <span class="sr-only">Range</span>
          <select value={days} onChange={(e) => setDays(e.currentTarget.value as keyof typeof RANGES)}>
            {Object.entries(RANGES).map(([value, words]) => (
              <option key={value} value={value}>
                {words}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error && <p class="error">{error}</p>}
      {stats && (
        <>
          <Totals stats={stats} />
          <h3>Steps by day</h3>
          <p class="muted small">Days in your time zone ({timezone}).</p>
          <DayColumns label="Steps by day" days={fillDays(stats.activity, Number(days), timezone)} />
          <ModelsAndTools stats={stats} />
        </>
      )}
    </article>
  );
}

/** Every day of the range (oldest first), with the days the server reported and zero for the others. */
function fillDays(activity: Array<{ date: string; steps: number }>, count: number, timeZone: string) {
  const byDate = new Map(activity.map((a) => [a.date, a.steps]));
  const day = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  const out: Array<{ date: string; value: number }> = [];
  for (let i = count - 1; i >= 0; i--) {
    const date = day.format(new Date(Date.now() - i * 86_400_000));
    if (!out.some((d) => d.date === date)) out.push({ date, value: byDate.get(date) ?? 0 });
  }
  return out;
}

/** Imports the session a file (an export of Outpost or opencode) holds; its id. */
async function importSession(file: File): Promise<string> {
  let parsed: { info?: unknown; messages?: unknown };
  try {
    parsed = JSON.parse(await file.text()) as typeof parsed;
  } catch {
    throw new Error(`${file.name} is not JSON: choose a file exported from Outpost or opencode.`);
  }
  const imported = await ok(
    client.POST('/api/experimental/session/import', {
      body: { info: parsed.info, messages: parsed.messages } as ImportBody,
    }),
  );
  return imported.data.id;
}

function Transfer() {
  const [sessions, setSessions] = useState<SessionInfo[]>([]);
  const [chosen, setChosen] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void ok(client.GET('/api/session', { params: { query: { limit: '100' } } }))
      .then((r) => {
        setSessions(r.data);
        setChosen(r.data[0]?.id ?? '');
      })
      .catch(() => undefined);
  }, []);
  const download = async () => {
    setError('');
    try {
      await downloadExport(chosen);
    } catch (failure) {
      setError((failure as ApiError).message);
    }
  };
  const upload = async (file: File) => {
    setError('');
    setBusy(true);
    try {
      navigate({ name: 'session', id: await importSession(file) });
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <article class="panel" aria-labelledby="transfer-title">
      <h2 id="transfer-title">Export and import</h2>
      <div class="grid">
        <div>
          <label for="export-session">Export a session (a JSON file)</label>
          <div class="row">
            <select id="export-session" value={chosen} onChange={(e) => setChosen(e.currentTarget.value)}>
              {sessions.map((s) => (
                <option key={s.id} value={s.id}>
                  {sessionTitle(s)}
                </option>
              ))}
            </select>
            <button type="button" class="secondary" disabled={!chosen} onClick={() => void download()}>
              Download
            </button>
          </div>
        </div>
        <div>
          <label for="import-file">Import a session from a file</label>
          <input
            id="import-file"
            type="file"
            accept="application/json,.json"
            disabled={busy}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              if (file) void upload(file);
              e.currentTarget.value = '';
            }}
          />
        </div>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </article>
  );
}
