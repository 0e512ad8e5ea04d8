import { Inject, Injectable } from '@nestjs/common';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { pluginsConfig, PluginsConfig } from './plugins.config';

const run = promisify(execFile);
const INSTALL_TIMEOUT_MS = 5 * 60_000;
const REGISTRY_TIMEOUT_MS = 15_000;
/** `//user:password@` in a registry URL that npm echoes back: never shown to a client. */
const CREDENTIALS_IN_URL = /\/\/[^/\s:@]+:[^/\s@]+@/g;

/** The registry could not be reached (network error, timeout, 5xx). */
export class RegistryUnreachableError extends Error {}

export interface Packument {
  versions: string[];
  distTags: Record<string, string>;
}

/** The child's environment without the `npm_*` variables an enclosing `npm run` sets, so only our flags count. */
function childEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
}

/**
 * The `npm` client and the registry, behind one class so tests and callers see one seam. npm is always spawned
 * with an argument array (never a shell), and only with specs that passed `parsePluginSpec`.
 */
@Injectable()
export class NpmClient {
  private defaultRegistry?: Promise<string>;

  constructor(@Inject(pluginsConfig.KEY) private readonly settings: PluginsConfig) {}

  /** `npm install <name>@<range>` into `prefix` (which holds a package.json), scripts off. */
  install(name: string, range: string, prefix: string, cacheDir: string): Promise<void> {
    const args = [
      'install',
      '--prefix',
      prefix,
      '--cache',
      cacheDir,
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--prefer-online',
      '--fetch-retries',
      '0',
      '--loglevel',
      'error',
      ...(this.settings.registry ? ['--registry', this.settings.registry] : []),
      '--',
      `${name}@${range}`,
    ];
    return new Promise((resolve, reject) => {
      const child = spawn('npm', args, {
        cwd: prefix,
        env: childEnv(),
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: INSTALL_TIMEOUT_MS,
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        if (stderr.length < 64_000) stderr += chunk.toString('utf8');
      });
      child.on('error', reject);
      child.on('close', (code, signal) => {
        if (code === 0) return resolve();
        const lines = stderr
          .split('\n')
          .map((line) => line.replace(/^npm (error|ERR!)\s*/, '').trim())
          .filter((line) => line && !/^(A complete log|Log files|npm warn)/i.test(line));
        const detail = lines.slice(0, 3).join(' ').slice(0, 500).replace(CREDENTIALS_IN_URL, '//***@');
        reject(new Error(`npm install ${name}@${range} failed: ${detail || `exit ${code ?? signal}`}`));
      });
    });
  }

  /** Published versions and dist-tags of a package; undefined when the registry does not know it. */
  async packument(name: string): Promise<Packument | undefined> {
    const registry = await this.registry();
    const url = new URL(name.replace('/', '%2f'), registry);
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { accept: 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8' },
        signal: AbortSignal.timeout(REGISTRY_TIMEOUT_MS),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      throw new RegistryUnreachableError(`the package registry is unreachable (${cause})`);
    }
    if (res.status === 404) return undefined;
    if (!res.ok) throw new RegistryUnreachableError(`the package registry answered ${res.status}`);
    const body = (await res.json().catch(() => ({}))) as {
      versions?: Record<string, unknown>;
      'dist-tags'?: Record<string, string>;
    };
    return { versions: Object.keys(body.versions ?? {}), distTags: body['dist-tags'] ?? {} };
  }

  private registry(): Promise<string> {
    if (this.settings.registry) return Promise.resolve(this.settings.registry);
    this.defaultRegistry ??= run('npm', ['config', 'get', 'registry'], { env: childEnv(), timeout: 30_000 })
      .then(({ stdout }) => stdout.trim() || 'https://registry.npmjs.org/')
      .then((url) => (url.endsWith('/') ? url : `${url}/`))
      .catch(() => 'https://registry.npmjs.org/');
    return this.defaultRegistry;
  }
}
