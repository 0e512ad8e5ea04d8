import { Module } from '@nestjs/common';
import { HomeController } from './home.controller';

/** The page at `/` (the instance web app takes it over once it exists). */
@Module({ controllers: [HomeController] })
export class HomeModule {}
