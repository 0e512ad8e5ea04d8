import { registerJsonApi } from '@/common/http/json-only';
import { ExecutionContext, Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthenticatedRequest, Authenticator, AuthRegistry } from '@/common/auth';
import { consoleAccessConfig, ConsoleAccessConfig } from './console-access.config';
import { isSameOriginChange } from './same-origin';
import { readSessionCookie } from './session-cookie';
import { TOKEN_PREFIXES } from './token-format';
import { BearerLookup, bearerToken } from './bearer-token';
import { ALLOW_INFERENCE_KEYS, ORG_ROLE, PERSON_ONLY, SIGNED_IN_ONLY } from './console-access.decorators';
import {
  ConsoleForbiddenError,
  ConsoleNotFoundError,
  ConsoleUnauthorizedError,
  OrgRequiredError,
} from './console-access.errors';
import { ConsolePrincipal, ResolvedCredential, Role, roleAtLeast } from './console-principal';
import { CredentialCache } from './credential-cache';
import { CredentialLookupRepository } from './credential-lookup.repository';
import { HttpRequest, PlainRequest } from '@/common/http/http';

export const CONSOLE_API_PREFIXES = ['/console/api/'];

interface RouteRules {
  signedInOnly: boolean;
  personOnly: boolean;
  allowInferenceKeys: boolean;
  /** Set when the route acts in one workspace. */
  role: Role | undefined;
}

/** What a model call needs: an Inference or All key (or a token) of a member of the workspace. */
const MODEL_CALLER_RULES: RouteRules = {
  signedInOnly: false,
  personOnly: false,
  allowInferenceKeys: true,
  role: 'member',
};

function header(request: PlainRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `{org}` from the path, else `x-org-id`: the workspace an unbound credential asks to act in. */
export function requestedOrg(request: PlainRequest): string | null {
  return (request.params as Record<string, string> | undefined)?.org ?? header(request, 'x-org-id') ?? null;
}

/**
 * The one authenticator of `/console/api/` and of the gateway's model calls (both paths: the Nest guard and the raw
 * lane): a bearer token goes to the lookup of its prefix (`oc_sk_` keys, `oc_ut_` user tokens, and whatever
 * `registerBearer` adds, e.g. `oc_at_` device tokens); without one, the sign-in cookie. Then the route's rules decide, in the order of the spec's statuses.
 */
@Injectable()
export class ConsoleAuthenticator implements Authenticator, OnModuleInit {
  private readonly bearers: Array<{ prefix: string; lookup: BearerLookup }> = [];
  private readonly cachedPrefixes: string[] = [];

  constructor(
    private readonly registry: AuthRegistry,
    private readonly reflector: Reflector,
    private readonly lookup: CredentialLookupRepository,
    private readonly cache: CredentialCache,
    @Inject(consoleAccessConfig.KEY) private readonly access: ConsoleAccessConfig,
  ) {}

  onModuleInit(): void {
    this.registerBearer(TOKEN_PREFIXES.serviceKey, (token) => this.lookup.apiKey(token));
    this.registerBearer(TOKEN_PREFIXES.userToken, (token, request) =>
      this.lookup.userToken(token, requestedOrg(request)),
    );
    this.registry.register(CONSOLE_API_PREFIXES, this);
    for (const prefix of CONSOLE_API_PREFIXES) registerJsonApi(prefix);
  }

  /** Bearer credentials checked under `prefixes` are served from the cache (the gateway's hot path registers its own). */
  cacheOn(prefixes: string[]): void {
    this.cachedPrefixes.push(...prefixes);
  }

  /**
   * The extension point for other bearer credentials (the device flow's `oc_at_` access tokens): the lookup
   * returns a `ResolvedCredential` (with `boundWorkspaceId` when the token is bound to a workspace).
   */
  registerBearer(prefix: string, lookup: BearerLookup): void {
    this.bearers.push({ prefix, lookup });
  }

  async authenticate(request: AuthenticatedRequest, context?: ExecutionContext): Promise<ConsolePrincipal> {
    const rules = this.rulesOf(context);
    const credential = await this.resolve(request);
    if (credential.credential === 'session' && !isSameOriginChange(request, this.access.origin)) {
      throw new ConsoleForbiddenError(
        'Cookie-authenticated changes must come from the console with a JSON body',
      );
    }
    return this.authorize(request, rules, credential);
  }

  /**
   * A model caller's key or token (no sign-in cookie): the gateway's model calls, answered before Fastify
   * (inference-lane.ts), and its public model list, which answers more to one.
   */
  async authenticateModelCaller(request: PlainRequest): Promise<ConsolePrincipal> {
    const credential = await this.resolveBearer(request);
    if (!credential) throw new ConsoleUnauthorizedError();
    return this.authorize(request, MODEL_CALLER_RULES, credential);
  }

  private rulesOf(context: ExecutionContext | undefined): RouteRules {
    const targets = context ? [context.getHandler(), context.getClass()] : [];
    const get = <T>(key: string) => this.reflector.getAllAndOverride<T | undefined>(key, targets);
    return {
      signedInOnly: get<boolean>(SIGNED_IN_ONLY) ?? false,
      personOnly: get<boolean>(PERSON_ONLY) ?? false,
      allowInferenceKeys: get<boolean>(ALLOW_INFERENCE_KEYS) ?? false,
      role: get<Role>(ORG_ROLE),
    };
  }

  /** 401 for a missing, malformed, unknown, expired or revoked credential. */
  private async resolve(request: HttpRequest): Promise<ResolvedCredential> {
    const bearer = await this.resolveBearer(request);
    if (bearer) return bearer;
    const cookie = readSessionCookie(request);
    const credential = cookie ? await this.lookup.session(cookie, requestedOrg(request)) : undefined;
    if (!credential) throw new ConsoleUnauthorizedError();
    return credential;
  }

  /** The bearer credential, or undefined without an `Authorization` header; 401 for a bad one. */
  private async resolveBearer(request: PlainRequest): Promise<ResolvedCredential | undefined> {
    const authorization = header(request, 'authorization');
    if (authorization === undefined) return undefined;
    const token = bearerToken(request, authorization);
    const bearer = token ? this.bearers.find((entry) => token.startsWith(entry.prefix)) : undefined;
    if (!token || !bearer) throw new ConsoleUnauthorizedError();
    // Only the routes registered with cacheOn (the gateway's) are served from the cache; the console API reads the
    // database each time.
    const cacheable = this.cachedPrefixes.some((prefix) => request.url.startsWith(prefix));
    const cacheKey = `${token}\n${requestedOrg(request) ?? ''}`;
    const cached = cacheable ? this.cache.get(cacheKey) : undefined;
    if (cached) return cached;
    const generation = this.cache.begin();
    const credential = await bearer.lookup(token, request);
    if (!credential) throw new ConsoleUnauthorizedError();
    if (cacheable) this.cache.set(cacheKey, credential, generation);
    return credential;
  }

  private authorize(
    request: PlainRequest,
    rules: RouteRules,
    credential: ResolvedCredential,
  ): ConsolePrincipal {
    if (rules.signedInOnly && credential.credential !== 'session') {
      throw new ConsoleForbiddenError(
        'This action needs a person signed in to the console, not a bearer credential',
      );
    }
    if (credential.permission === 'inference' && !rules.allowInferenceKeys) {
      throw new ConsoleForbiddenError('An Inference-only key cannot call the console API');
    }
    if (rules.personOnly && !credential.userId) {
      throw new ConsoleForbiddenError('This action needs a person, not a service account');
    }
    const { workspaceId, role } = this.workspaceOf(request, rules, credential);
    if (rules.role && !roleAtLeast(role, rules.role)) {
      throw new ConsoleForbiddenError(`This action needs the ${rules.role} role in the workspace`);
    }
    return {
      credential: credential.credential,
      credentialId: credential.credentialId,
      userId: credential.userId,
      email: credential.email,
      name: credential.name,
      serviceAccountId: credential.serviceAccountId,
      permission: credential.permission,
      ...(credential.controls ? { controls: credential.controls } : {}),
      kind: 'console',
      workspaceId,
      role,
      ip: request.ip ?? '',
    };
  }

  private workspaceOf(
    request: PlainRequest,
    rules: RouteRules,
    credential: ResolvedCredential,
  ): { workspaceId: string | null; role: Role | null } {
    const pathOrg = (request.params as Record<string, string> | undefined)?.org;
    const headerOrg = header(request, 'x-org-id');
    const bound = credential.boundWorkspaceId;
    if (bound) {
      if ((pathOrg !== undefined && pathOrg !== bound) || (headerOrg !== undefined && headerOrg !== bound)) {
        throw new ConsoleForbiddenError('This credential is bound to another workspace');
      }
      return { workspaceId: bound, role: credential.workspace.role };
    }
    const orgScoped = rules.role !== undefined || pathOrg !== undefined;
    if (!orgScoped) return { workspaceId: null, role: null };
    if (credential.credential === 'user_token' && headerOrg === undefined) throw new OrgRequiredError();
    const org = pathOrg ?? headerOrg;
    if (org === undefined) throw new OrgRequiredError();
    if (pathOrg !== undefined && headerOrg !== undefined && pathOrg !== headerOrg) {
      throw new ConsoleForbiddenError('x-org-id names another workspace than the path');
    }
    if (!credential.workspace.found) throw new ConsoleNotFoundError(`Workspace not found: ${org}`);
    if (!credential.workspace.role) throw new ConsoleForbiddenError('You are not a member of this workspace');
    return { workspaceId: org, role: credential.workspace.role };
  }
}
