import { Module } from '@nestjs/common';
import { HomeController } from './home.controller';
import { FaviconController, WebAssetsController } from './web-assets.controller';

/** The page at `/` (the instance web app when the instance surface is on) and the web bundles under `/web/`. */
@Module({ controllers: [HomeController, WebAssetsController, FaviconController] })
export class HomeModule {}
