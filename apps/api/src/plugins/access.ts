import type {
  FastifyInstance,
  FastifyRequest,
  onRequestAsyncHookHandler,
  onRequestHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import {
  CSRF_COOKIE,
  FEATURES,
  messages,
  SYSTEM_ROLES,
  type FeatureKey,
  type PermissionEntry,
  type Scope,
} from '@portal/shared';
import { AppError, forbidden, unauthorized } from '../lib/errors.js';
import { can, type Actor, type Visitor } from '../core/actor.js';
import type { CachedRole, CachedUser } from '../core/identity/cache.repo.js';
import { clientAddress } from '../lib/client-address.js';
import { ACCESS_COOKIE, checkCsrfToken } from './session-cookies.js';

/** What a route needs. Every /api route declares one; app start fails otherwise. */
export type Access =
  | { kind: 'public' }
  | { kind: 'signedIn'; beforeEnrolment?: true }
  | { kind: 'permission'; feature: FeatureKey; scope: Scope }
  | { kind: 'apiKey' };

export const access = {
  /** Sign-in, password recovery, health, webhooks: no session. */
  public: { kind: 'public' } as Access,
  /** Any signed-in user acting on their own account (profile, password, logout). */
  signedIn: { kind: 'signedIn' } as Access,
  /**
   * Any signed-in user, also one whose role requires a second factor they have not set up yet: only
   * who-am-I, sign-out and the enrolment itself. Every other route refuses them until they enrol.
   */
  beforeEnrolment: { kind: 'signedIn', beforeEnrolment: true } as Access,
  /** The interview product, with an organization's API key. */
  apiKey: { kind: 'apiKey' } as Access,
  can: (feature: FeatureKey, scope: Scope): Access => ({ kind: 'permission', feature, scope }),
};

/** Who calls an `access.apiKey` route: the organization of the key it presented. */
export interface ApiClient {
  organizationId: string;
  keyId: string;
  keyPrefix: string;
}

/** A live session of an access token, and who its user is as of the identity version read with it. */
export interface AccessSession {
  sessionId: string;
  familyId: string;
  userId: string;
  /** The family's sign-in passed a second factor. */
  secondFactor: boolean;
  identity: CachedUser & { role: CachedRole };
}

/**
 * What the plugin is handed (app.ts), so that it imports no module: the session lookup (sessions'
 * front door) and the API-key check (billing's).
 */
export interface AccessOptions {
  allowedOrigins: string[];
  /** The session of an access token, or null: one single-table statement and the identity cache. */
  findSession: (accessToken: string) => Promise<AccessSession | null>;
  /** The caller of an `Authorization: Bearer <key>` request, or 401. */
  authenticateApiKey: (visitor: Visitor, authorization: string | undefined) => Promise<ApiClient>;
}

/** One registered route and what it declared; `app.routeAccess` lists them all (test/route-access.test.ts). */
export interface RouteAccessRecord {
  method: string;
  url: string;
  access: Access | undefined;
  /** Its schema's `consumes`: upload routes list multipart/form-data (test/security-battery.test.ts). */
  consumes: readonly string[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    actor: Actor | null;
    /** The key's organization on `access.apiKey` routes, once the bearer key is checked. */
    apiClient: ApiClient | null;
  }
  interface FastifyInstance {
    routeAccess: RouteAccessRecord[];
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Routes outside the API (the web app, the docs viewer) declare nothing. */
export function isApiRoute(url: string): boolean {
  return url.startsWith('/api/') && !url.startsWith('/api/docs');
}

export function requireApiClient(request: FastifyRequest): ApiClient {
  if (!request.apiClient) throw unauthorized();
  return request.apiClient;
}

export function requireActor(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorized();
  return request.actor;
}

/** The caller of a public route, as the actor its service is handed. */
export function visitorOf(request: FastifyRequest): Visitor {
  return { kind: 'visitor', address: clientAddress(request), userAgent: request.headers['user-agent'] };
}

/** The Origin is checked against configuration, never against the request's own Host. */
function originAllowed(request: FastifyRequest, allowedOrigins: readonly string[]): boolean {
  if (request.headers['sec-fetch-site'] === 'cross-site') return false;
  const origin = request.headers.origin;
  return !origin || allowedOrigins.includes(origin);
}

async function accessPlugin(app: FastifyInstance, options: AccessOptions) {
  app.decorateRequest('actor', null);
  app.decorateRequest('apiClient', null);

  const routeAccess: RouteAccessRecord[] = [];
  app.decorate('routeAccess', routeAccess);
  /**
   * The check a route needs, as that route's own onRequest hook, added at `onRoute` (after the global
   * hooks, first of the route's own): a public GET runs none. One global async hook used to run on
   * every request, to learn that public routes needed nothing of it (docs/decisions/037).
   */
  function checkFor(
    declared: Access,
    methods: readonly string[],
  ): onRequestHookHandler | onRequestAsyncHookHandler | null {
    if (declared.kind !== 'public') return (request: FastifyRequest) => admit(request, declared);
    if (methods.every((method) => SAFE_METHODS.has(method))) return null;
    return (request, _reply, done) => done(unsafeFromElsewhere(request) ? csrfRefused() : undefined);
  }

  function unsafeFromElsewhere(request: FastifyRequest): boolean {
    return !SAFE_METHODS.has(request.method) && !originAllowed(request, options.allowedOrigins);
  }

  async function admit(request: FastifyRequest, declared: Exclude<Access, { kind: 'public' }>) {
    if (unsafeFromElsewhere(request)) throw csrfRefused();
    if (declared.kind === 'apiKey') {
      request.apiClient = await options.authenticateApiKey(visitorOf(request), request.headers.authorization);
      return;
    }

    const token = request.cookies[ACCESS_COOKIE];
    if (!token) throw unauthorized();
    // One single-table statement per request; who the user is comes from the identity cache of the
    // version read with the session (a second statement only after a change to users or roles).
    const session = await options.findSession(token);
    if (!session || !session.identity.isActive) throw unauthorized();
    const { identity } = session;
    // A session opened with the password alone is no session once its account has a second factor:
    // enrolling elsewhere must not promote a thief's session (the refresh refuses it too).
    if (identity.twoFactorEnabled && !session.secondFactor) throw unauthorized();

    if (!SAFE_METHODS.has(request.method)) {
      checkCsrfToken(app.deps.secrets.session, session.familyId, request.headers['x-csrf-token']);
    }

    const isSuperAdmin = identity.role.name === SYSTEM_ROLES.superAdmin;
    const twoFactor = {
      enabled: identity.twoFactorEnabled,
      required: isSuperAdmin || identity.role.requireTwoFactor,
    };
    if (
      twoFactor.required &&
      !twoFactor.enabled &&
      !(declared.kind === 'signedIn' && declared.beforeEnrolment)
    ) {
      throw new AppError(403, messages.twoFactor.enrolmentRequired, 'TWO_FACTOR_ENROLMENT_REQUIRED');
    }
    request.actor = {
      kind: 'user',
      sessionId: session.sessionId,
      familyId: session.familyId,
      userId: session.userId,
      organizationId: identity.organizationId,
      roleId: identity.roleId,
      roleName: identity.role.name,
      isSuperAdmin,
      permissions: isSuperAdmin ? SUPER_ADMIN_PERMISSIONS : identity.role.permissions,
      twoFactor,
    };

    if (declared.kind === 'permission' && !can(request.actor, declared.feature, declared.scope)) {
      throw forbidden();
    }
  }

  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    const declared = route.config?.access;
    for (const method of methods) {
      const consumes = (route.schema as { consumes?: string[] } | undefined)?.consumes ?? [];
      routeAccess.push({ method, url: route.url, access: declared, consumes });
    }
    if (isApiRoute(route.url) && !declared) {
      throw new Error(`Route ${route.method} ${route.url} declares no access (STYLE.md §3)`);
    }
    const check = declared && checkFor(declared, methods);
    // First of the route's own hooks, as the global hook it replaces was; a new array, since Fastify
    // copies a GET's options for its HEAD route, which comes back through here.
    if (check) route.onRequest = [check, ...[route.onRequest ?? []].flat()];
  });
}

function csrfRefused(): AppError {
  return new AppError(403, messages.http.csrf, 'CSRF');
}

/** super_admin holds every scope on every feature, always. */
const SUPER_ADMIN_PERMISSIONS: PermissionEntry[] = Object.values(FEATURES).map((f) => ({
  id: f.id,
  featureId: f.id,
  featureName: f.name,
  permissionScopes: ['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT', 'IMPORT'],
}));

export default fp(accessPlugin, { name: 'access', dependencies: ['db'] });
export { CSRF_COOKIE };
