import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { appConfig, AppConfig } from '@/config/app.config';
import { DatabaseHealth } from '@/database/database-health';
import { ConsoleLinkService } from '../console-link/console-link.service';
import { LocationsService } from '../locations/locations.service';
import { ServerInfoDto } from './dto/server-info.dto';
import { serverUrls } from './server-urls';

function packageVersion(): string {
  try {
    const file = join(__dirname, '..', '..', '..', 'package.json');
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

const VERSION = packageVersion();

@Injectable()
export class ServerInfoService {
  constructor(
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly database: DatabaseHealth,
    private readonly locations: LocationsService,
    private readonly link: ConsoleLinkService,
  ) {}

  async info(): Promise<ServerInfoDto> {
    return {
      version: VERSION,
      pid: process.pid,
      urls: serverUrls(this.config.host, this.port()),
      paths: { tmp: tmpdir(), home: homedir(), data: this.config.dataDir, config: this.config.configDir },
      ready: await this.ready(),
      console: this.link.status(),
    };
  }

  private port(): number {
    const address = this.adapterHost.httpAdapter.getHttpServer().address() as AddressInfo | string | null;
    return typeof address === 'object' && address ? address.port : this.config.port;
  }

  private async ready(): Promise<boolean> {
    if (!(await this.database.answers())) return false;
    try {
      await this.locations.resolve();
      return true;
    } catch {
      return false;
    }
  }
}
