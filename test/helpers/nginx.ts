import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './processes';

export interface NginxOptions {
  /**
   * The node that serves everything but the console, the gateway and the probes (the instance surface, one per
   * machine): with it, only `/console`, `/inference` and `/health` are balanced across `upstreams`.
   */
  instance?: string;
}

/**
 * One location's proxying: HTTP/1.1 with keep-alive, nothing buffered, a failed hand-over tried on the next node;
 * the answer says which node gave it (`x-test-upstream`, for tests of the balancing).
 */
function proxied(upstream: string): string {
  return `proxy_pass http://${upstream};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 300s;
      proxy_next_upstream error timeout http_503;
      proxy_next_upstream_tries 3;
      add_header X-Test-Upstream $upstream_addr always;`;
}

/** Everything to the balanced nodes, or with an instance node only the fleet's surfaces and the rest to it. */
function locations(options: NginxOptions): string {
  const location = (path: string, upstream: string) =>
    `location ${path} {\n      ${proxied(upstream)}\n    }`;
  if (!options.instance) return location('/', 'outpost');
  const balanced = ['/console', '/inference', '/health'].map((path) => location(path, 'outpost'));
  return [...balanced, location('/', 'instance')].join('\n    ');
}

/**
 * A real nginx (Debian's package) on loopback in front of several Outpost nodes, configured as docs/operations.md
 * advises: round robin, keep-alive to the nodes (idle ones dropped within 500 ms, below the fleet test's drain
 * delay), no buffering (SSE and streams pass as they come), and a request that could not be sent to a node tried on
 * the next node (a GET also after an error before the answer, or a draining node's 503; a POST never after it was
 * sent).
 */
export async function startNginx(
  upstreams: string[],
  port?: number,
  options: NginxOptions = {},
): Promise<{ url: string; stop: () => Promise<void> }> {
  const prefix = mkdtempSync(join(tmpdir(), 'outpost-nginx-'));
  for (const dir of ['logs', 'tmp']) mkdirSync(join(prefix, dir));
  port ??= await freePort();
  const servers = upstreams
    .map((url) => `server ${new URL(url).host} max_fails=1 fail_timeout=2s;`)
    .join('\n    ');
  writeFileSync(
    join(prefix, 'nginx.conf'),
    `worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  fastcgi_temp_path ${prefix}/tmp/fastcgi;
  uwsgi_temp_path ${prefix}/tmp/uwsgi;
  scgi_temp_path ${prefix}/tmp/scgi;
  upstream outpost {
    ${servers}
    keepalive 32;
    keepalive_timeout 500ms;
  }
  ${options.instance ? `upstream instance {\n    server ${new URL(options.instance).host};\n    keepalive 8;\n  }` : ''}
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 20m;
    ${locations(options)}
  }
}
`,
  );
  const child: ChildProcess = spawn(
    'nginx',
    ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-g', 'daemon off;'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const up = await fetch(`${url}/health/live`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (up) break;
    if (i > 100 || child.exitCode !== null) throw new Error(`nginx did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGQUIT');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
