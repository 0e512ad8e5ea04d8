import { INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { AppConfig, appConfig } from './config/app.config';
import { setupDocs } from './modules/docs/docs';

/** What main and the tests both do to a created app, so tests exercise the real HTTP stack. */
export async function configureApp(app: INestApplication): Promise<void> {
  const express = app as NestExpressApplication;
  const config = app.get<AppConfig>(appConfig.KEY);
  express.useLogger(app.get(Logger));
  express.disable('x-powered-by');
  // Nested query objects, for the deepObject `location[directory]=…` parameters of the instance API.
  express.set('query parser', 'extended');
  if (config.trustProxy) express.set('trust proxy', true);
  express.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          'script-src': ["'self'"],
          'img-src': ["'self'", 'data:'],
          'upgrade-insecure-requests': null,
        },
      },
      hsts: false,
    }),
  );
  express.useBodyParser('json', { limit: config.bodyLimitBytes, strict: false });
  express.useBodyParser('urlencoded', { limit: config.bodyLimitBytes, extended: false });
  await setupDocs(app);
}
