import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { appConfig, AppConfig } from '@/config/app.config';
import { NpmClient } from './npm.client';
import { loadPlugin, PluginModule } from './plugin-loader';

/** One installed and loaded version of a package plugin. */
export interface Installation {
  dir: string;
  version: string;
  plugin: PluginModule;
}

interface Pointer {
  install: string;
}

/**
 * Package plugins on disk: `$OUTPOST_DATA_DIR/plugins/<target>/<install>/node_modules/<name>`, with
 * `current.json` naming the active install. Every install goes into a fresh directory and becomes current only
 * after npm succeeded and the module loaded, so a failure never leaves a half-installed plugin active.
 */
@Injectable()
export class PackageInstaller {
  private readonly root: string;

  constructor(
    private readonly npm: NpmClient,
    @Inject(appConfig.KEY) app: AppConfig,
  ) {
    this.root = join(app.dataDir, 'plugins');
  }

  /** The active install of a target, loaded; undefined when there is none (or it no longer loads). */
  async current(target: string, name: string): Promise<Installation | undefined> {
    const pointer = await readFile(this.pointerFile(target), 'utf8').then(
      (text) => JSON.parse(text) as Pointer,
      () => undefined,
    );
    if (!pointer || !/^[\w.-]+$/.test(pointer.install)) return undefined;
    return this.open(join(this.targetDir(target), pointer.install), name).catch(() => undefined);
  }

  /** Installs `name@range` into a fresh directory and loads it; the directory is removed again on failure. */
  async installFresh(target: string, name: string, range: string): Promise<Installation> {
    const dir = join(this.targetDir(target), `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`);
    await mkdir(dir, { recursive: true });
    try {
      await writeFile(
        join(dir, 'package.json'),
        JSON.stringify({ name: 'outpost-plugin-install', private: true }),
      );
      await this.npm.install(name, range, dir, join(this.root, '.npm-cache'));
      return await this.open(dir, name);
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  }

  /** Makes an install the active one (atomic rename of the pointer) and removes the one it replaces. */
  async activate(target: string, next: Installation, previous?: Installation): Promise<void> {
    const pointer = this.pointerFile(target);
    const install = next.dir.slice(this.targetDir(target).length + 1);
    await writeFile(`${pointer}.tmp`, JSON.stringify({ install } satisfies Pointer));
    await rename(`${pointer}.tmp`, pointer);
    if (previous && previous.dir !== next.dir) await rm(previous.dir, { recursive: true, force: true });
  }

  private async open(dir: string, name: string): Promise<Installation> {
    const packageDir = join(dir, 'node_modules', name);
    const pkg = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { version?: unknown };
    if (typeof pkg.version !== 'string') throw new Error(`${name} has no version in its package.json`);
    const plugin = await loadPlugin(packageDir, false);
    return { dir, version: pkg.version, plugin };
  }

  private targetDir(target: string): string {
    return join(this.root, encodeURIComponent(target));
  }

  private pointerFile(target: string): string {
    return join(this.targetDir(target), 'current.json');
  }
}
