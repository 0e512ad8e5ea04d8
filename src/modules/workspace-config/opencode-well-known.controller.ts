import { Controller, Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@/common/auth';
import { HttpRequest, requestOrigin } from '@/common/http/http';
import { cliConfig } from './cli-config';
import { OpencodeWellKnownDto } from './dto/opencode-well-known.dto';
import { WorkspaceConfigService } from './workspace-config.service';

/** The variable the console's providers take their key from (as after `opencode console login`). */
const TOKEN_VARIABLE = 'OPENCODE_CONSOLE_TOKEN';

/**
 * What `opencode auth login <console>` runs on the person's machine: it asks, on the terminal, for an API key made
 * in the console and prints it (opencode keeps it as `OPENCODE_CONSOLE_TOKEN`). The console's address is an
 * argument of the script, never part of its text.
 */
const ASK_FOR_KEY = [
  'printf "Make an API key under Keys at %s and paste it here (oc_sk_...): " "$1/console" > /dev/tty',
  'IFS= read -r key < /dev/tty',
  'case "$key" in oc_sk_*) printf "%s" "$key" ;; *) echo "not an Outpost API key" > /dev/tty; exit 1 ;; esac',
].join('\n');

/**
 * `GET /console/.well-known/opencode`: what opencode's `auth login <url>` reads. Its `auth` says how to get a
 * token (`command`, whose output is kept under `env`), and its `config` is merged into every opencode config on
 * that machine from then on: the gateway's catalogue as providers whose key is that token. Public (opencode fetches
 * it without credentials), so it names only what the console offers anyone: no workspace's connections.
 */
@ApiTags('console: workspace config')
@Controller('console/.well-known')
export class OpencodeWellKnownController {
  constructor(private readonly config: WorkspaceConfigService) {}

  @Get('opencode')
  @Public()
  @ApiOperation({
    operationId: 'console.wellKnown',
    summary: "What `opencode auth login <console>` reads: how to get a key, and the gateway's providers",
  })
  @ApiOkResponse({ type: OpencodeWellKnownDto })
  async wellKnown(@Req() request: HttpRequest): Promise<OpencodeWellKnownDto> {
    const origin = requestOrigin(request);
    const providers = await this.config.publicProviders(origin);
    return {
      auth: { command: ['sh', '-c', ASK_FOR_KEY, 'outpost-login', origin], env: TOKEN_VARIABLE },
      config: { $schema: 'https://opencode.ai/config.json', ...cliConfig({ providers }) },
    };
  }
}
