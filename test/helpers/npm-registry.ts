import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

interface Published {
  version: string;
  tarball: Buffer;
  shasum: string;
  integrity: string;
}

/**
 * A small npm registry on loopback: serves packuments and tarballs that the test builds with `tar`.
 * `hold()` keeps tarball downloads waiting until released, so a test can look at a running install.
 */
export class TestRegistry {
  readonly requests: string[] = [];
  private readonly packages = new Map<string, Published[]>();
  private readonly waiters: Array<{ match: (path: string) => boolean; resolve: () => void }> = [];
  private gate?: Promise<void>;
  private server!: Server;
  url = '';

  static async start(): Promise<TestRegistry> {
    const registry = new TestRegistry();
    registry.server = createServer((req, res) => {
      void registry.handle(req).then(
        ({ status, body, type }) => {
          res.writeHead(status, { 'content-type': type });
          res.end(body);
        },
        () => res.destroy(),
      );
    });
    await new Promise<void>((resolve) => registry.server.listen(0, '127.0.0.1', resolve));
    registry.url = `http://127.0.0.1:${(registry.server.address() as AddressInfo).port}`;
    return registry;
  }

  /** Builds `package/` from the files (package.json added) into a .tgz and publishes it as a version. */
  publish(name: string, version: string, files: Record<string, string>): void {
    const work = mkdtempSync(join(tmpdir(), 'outpost-pack-'));
    try {
      const pkgFiles = { 'package.json': JSON.stringify({ name, version, main: 'index.js' }), ...files };
      for (const [path, content] of Object.entries(pkgFiles)) {
        mkdirSync(dirname(join(work, 'package', path)), { recursive: true });
        writeFileSync(join(work, 'package', path), content);
      }
      execFileSync('tar', ['-czf', join(work, 'out.tgz'), '-C', work, 'package']);
      const tarball = readFileSync(join(work, 'out.tgz'));
      const published = this.packages.get(name) ?? [];
      published.push({
        version,
        tarball,
        shasum: createHash('sha1').update(tarball).digest('hex'),
        integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
      });
      this.packages.set(name, published);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }

  /** Tarball downloads wait until the returned function is called. */
  hold(): () => void {
    let release!: () => void;
    this.gate = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.gate = undefined;
      release();
    };
  }

  /** Resolves when a request whose path contains `text` arrives (or has arrived). */
  requested(text: string): Promise<void> {
    if (this.requests.some((path) => path.includes(text))) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ match: (path) => path.includes(text), resolve }));
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(
    req: IncomingMessage,
  ): Promise<{ status: number; body: string | Buffer; type: string }> {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
    this.requests.push(path);
    for (const waiter of this.waiters.filter((w) => w.match(path))) waiter.resolve();
    const tarballAt = path.indexOf('/-/');
    const name = (tarballAt >= 0 ? path.slice(1, tarballAt) : path.slice(1)).toLowerCase();
    const published = this.packages.get(name);
    if (!published) return { status: 404, body: '{"error":"Not found"}', type: 'application/json' };
    if (tarballAt >= 0) {
      await this.gate;
      const found = published.find((p) => path.endsWith(`-${p.version}.tgz`));
      if (!found) return { status: 404, body: '{"error":"Not found"}', type: 'application/json' };
      return { status: 200, body: found.tarball, type: 'application/octet-stream' };
    }
    const versions = Object.fromEntries(
      published.map((p) => [
        p.version,
        {
          name,
          version: p.version,
          main: 'index.js',
          dist: {
            tarball: `${this.url}/${name}/-/${name.split('/').pop()}-${p.version}.tgz`,
            shasum: p.shasum,
            integrity: p.integrity,
          },
        },
      ]),
    );
    const latest = published[published.length - 1].version;
    return {
      status: 200,
      body: JSON.stringify({ name, 'dist-tags': { latest }, versions }),
      type: 'application/json',
    };
  }
}
