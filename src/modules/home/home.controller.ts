import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@/common/auth';
import { appConfig, AppConfig } from '@/config/app.config';
import { html, page } from '@/common/http/html';
import { appShell } from './web-page';

/**
 * `GET /`: where a person who opens the server's address lands. With the instance surface, the instance web app
 * (it signs the person in itself); without it, a page that says what this server offers. Never a JSON 404.
 */
@ApiExcludeController()
@Controller()
export class HomeController {
  constructor(@Inject(appConfig.KEY) private readonly config: AppConfig) {}

  @Public()
  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-store')
  home(): string {
    const surfaces = this.config.surfaces;
    if (surfaces.includes('instance')) return appShell();
    return page(
      { title: 'Outpost' },
      html`<p>A self-hostable server for a coding assistant.</p>
        <ul>
          ${surfaces.includes('console') ? html`<li><a href="/console">The console</a>: people, workspaces, keys, budgets.</li>` : html``}
          ${surfaces.includes('inference') ? html`<li>The inference gateway under <code>/inference</code>.</li>` : html``}
          <li><a href="/docs">API documents</a> (Swagger UI).</li>
        </ul>`,
    );
  }
}
