import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { HttpReply } from '@/common/http/http';
import metadata from '../../metadata';
import { ERROR_EXTENSION_PREFIX } from './api-error.decorator';

type Parameter = { name: string; in: string };
type Operation = { responses?: Record<string, unknown>; operationId?: string; parameters?: Parameter[] };

const INSTANCE_PREFIXES = ['/api/', '/auth/connect/'];
const ERROR_SCHEMA = {
  type: 'object',
  required: ['_tag', 'message'],
  properties: { _tag: { type: 'string' }, message: { type: 'string' } },
  additionalProperties: true,
};

/** Every operation documents the 400 and 401 every request can meet, as the spec says. */
function withCommonErrors(document: OpenAPIObject, unauthorizedTag: string): OpenAPIObject {
  document.components ??= {};
  document.components.schemas = { ...document.components.schemas, TaggedError: ERROR_SCHEMA };
  const errorBody = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/TaggedError' } } },
  });
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path) as Operation[]) {
      if (typeof operation !== 'object' || !operation || !('responses' in operation)) continue;
      operation.responses ??= {};
      for (const key of Object.keys(operation).filter((name) => name.startsWith(ERROR_EXTENSION_PREFIX))) {
        const { tag, description } = (operation as Record<string, { tag: string; description: string }>)[key];
        operation.responses[key.slice(ERROR_EXTENSION_PREFIX.length)] = errorBody(`${tag}: ${description}`);
        delete (operation as Record<string, unknown>)[key];
      }
      operation.responses['400'] ??= errorBody('InvalidRequestError');
      operation.responses['401'] ??= errorBody(unauthorizedTag);
    }
  }
  return document;
}

/** Only the component schemas the document's operations reach: each document describes its own surface. */
function withReachableSchemas(document: OpenAPIObject): OpenAPIObject {
  const schemas = document.components?.schemas ?? {};
  const reached = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    for (const [key, member] of Object.entries(value)) {
      if (key === '$ref' && typeof member === 'string' && member.startsWith('#/components/schemas/')) {
        const name = member.slice('#/components/schemas/'.length);
        if (!reached.has(name)) {
          reached.add(name);
          visit(schemas[name]);
        }
      } else visit(member);
    }
  };
  visit(document.paths);
  document.components = {
    ...document.components,
    schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => reached.has(name))),
  };
  return document;
}

/**
 * Every `{name}` of a path is a declared path parameter, also where the controller takes it from the route (a
 * guard reads `{org}`) rather than through `@Param`: clients generated from the document must be able to fill it.
 */
function withPathParameters(document: OpenAPIObject): OpenAPIObject {
  for (const [path, item] of Object.entries(document.paths)) {
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    for (const operation of Object.values(item) as Operation[]) {
      if (typeof operation !== 'object' || !operation || !('responses' in operation)) continue;
      for (const name of names) {
        if (operation.parameters?.some((parameter) => parameter.in === 'path' && parameter.name === name))
          continue;
        (operation.parameters ??= []).unshift({
          name,
          in: 'path',
          required: true,
          schema: { type: 'string' },
        } as Parameter);
      }
    }
  }
  return document;
}

function pick(document: OpenAPIObject, keep: (path: string) => boolean): OpenAPIObject['paths'] {
  return Object.fromEntries(Object.entries(document.paths).filter(([path]) => keep(path)));
}

export function buildDocuments(app: INestApplication): { instance: OpenAPIObject; console: OpenAPIObject } {
  const all = SwaggerModule.createDocument(app, new DocumentBuilder().build(), {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}.${method}`,
  });
  const isInstance = (path: string) => INSTANCE_PREFIXES.some((prefix) => path.startsWith(prefix));

  const instance = new DocumentBuilder()
    .setTitle('Outpost instance API (experimental)')
    .setDescription('Experimental HttpApi surface for selected instance routes.')
    .setVersion('0.0.1')
    .addBasicAuth(
      {
        type: 'http',
        scheme: 'basic',
        description: 'user `opencode`, the server password or a pairing token',
      },
      'basic',
    )
    .addSecurityRequirements('basic')
    .build();
  const consoleBase = new DocumentBuilder()
    .setTitle('Outpost console API')
    .setDescription('Workspaces, keys, device sign-in, workspace config, budgets, and the inference gateway.')
    .setVersion('1.0.0')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'API key, user token or device token' },
      'bearer',
    )
    .addCookieAuth('outpost_console', { type: 'apiKey', in: 'cookie', name: 'outpost_console' }, 'cookie')
    .addSecurityRequirements('bearer')
    .addSecurityRequirements('cookie')
    .build();

  const finish = (base: Omit<OpenAPIObject, 'paths'>, paths: OpenAPIObject['paths'], tag: string) =>
    withReachableSchemas(
      withPathParameters(
        withCommonErrors(
          { ...base, openapi: '3.1.0', paths, components: { ...all.components, ...base.components } },
          tag,
        ),
      ),
    );
  return {
    instance: finish(instance, pick(all, isInstance), 'UnauthorizedError'),
    console: finish(
      consoleBase,
      pick(all, (path) => !isInstance(path)),
      'Unauthorized',
    ),
  };
}

/** Swagger UI at `/docs` with both documents to choose from; raw JSON at `/docs/<name>.json`. */
export async function setupDocs(app: INestApplication): Promise<void> {
  // DTO shapes the swagger CLI plugin read at build time (`nest build` writes src/metadata.ts).
  await SwaggerModule.loadPluginMetadata(metadata);
  let documents: ReturnType<typeof buildDocuments> | undefined;
  const get = () => (documents ??= buildDocuments(app));
  const http = app.getHttpAdapter();
  http.get('/docs/instance.json', (_req: unknown, reply: HttpReply) => reply.send(get().instance));
  http.get('/docs/console.json', (_req: unknown, reply: HttpReply) => reply.send(get().console));
  SwaggerModule.setup('docs', app, () => get().instance, {
    explorer: true,
    raw: false,
    customSiteTitle: 'Outpost API',
    swaggerOptions: {
      urls: [
        { url: '/docs/instance.json', name: 'Instance API' },
        { url: '/docs/console.json', name: 'Console API' },
      ],
      persistAuthorization: true,
    },
  });
}
