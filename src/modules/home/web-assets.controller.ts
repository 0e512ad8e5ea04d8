import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Public } from '@/common/auth';
import { NotFoundError } from '@/common/errors';
import { HttpReply } from '@/common/http/http';
import { WebEntryFileParamsDto, WebFileParamsDto } from './dto/web-asset-params.dto';

/** Where `npm run build` puts the web bundles (the same from src/ under the tests and from dist/). */
const WEB_DIST = join(__dirname, '..', '..', '..', 'dist', 'web');

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  map: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
};

/** The built web pages' scripts, stylesheets and icon, served from this origin (the pages make no other request). */
@ApiExcludeController()
@Public()
@Controller('web')
export class WebAssetsController {
  @Get(':file')
  file(@Param() params: WebFileParamsDto, @Res() reply: HttpReply): Promise<void> {
    return send(reply, params.file);
  }

  @Get(':entry/:file')
  entryFile(@Param() params: WebEntryFileParamsDto, @Res() reply: HttpReply): Promise<void> {
    return send(reply, join(params.entry, params.file));
  }
}

async function send(reply: HttpReply, path: string): Promise<void> {
  let body: Buffer;
  try {
    body = await readFile(join(WEB_DIST, path));
  } catch {
    throw new NotFoundError(`No web file ${path} (was \`npm run build\` run?)`);
  }
  const type = TYPES[path.slice(path.lastIndexOf('.') + 1)];
  // Revalidated on every load, so a rebuilt server never runs yesterday's script.
  void reply.header('content-type', type).header('cache-control', 'no-cache').send(body);
}

/** `/favicon.ico`, which browsers request on a first load whatever the page links: the same SVG icon. */
@ApiExcludeController()
@Public()
@Controller()
export class FaviconController {
  @Get('favicon.ico')
  favicon(@Res() reply: HttpReply): Promise<void> {
    return send(reply, 'favicon.svg');
  }
}
