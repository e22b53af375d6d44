import Fastify from 'fastify';
import fp from 'fastify-plugin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURES, messages, SCOPES, type Scope } from '@portal/shared';
import accessPlugin, { isApiRoute, type Access, type RouteAccessRecord } from '../src/plugins/access.js';
import {
  createOrganizationDirect,
  createTestApp,
  createUserDirect,
  Session,
  signIn,
  STRONG_PASSWORD,
  type TestContext,
} from './harness.js';

/**
 * Routes anyone may call without a session. Adding a public route is a security decision: list it
 * here with the reason, or give it an access declaration.
 */
const PUBLIC_ROUTES: Record<string, string> = {
  'POST /api/auth/auth-session/login': 'sign in',
  'POST /api/auth/auth-session/refresh-token': 'the access cookie has expired; checks refresh cookie + CSRF',
  'POST /api/refresh': 'alias of refresh-token',
  'POST /api/auth/forgot-password': 'password recovery',
  'POST /api/auth/reset-password': 'one-time link',
  'POST /api/auth/reset-password/check': 'whether a one-time link is still usable, read-only',
  'GET /api/health': 'liveness probe',
  'GET /api/health/live': 'liveness probe, without the database',
  'GET /api/health/ready': "readiness probe: the database, its migrations, the process's shutdown",
  'GET /api/config': 'public client configuration',
  'POST /api/auth/auth-session/two-factor': "sign-in's second step; checks the password step's challenge",
  'POST /api/admin/payment/webhook': 'Razorpay webhook, verified by signature',
};

function describeAccess(access: Access | undefined): string {
  if (!access) return 'NONE';
  if (access.kind === 'permission') return `${FEATURES[access.feature].name} ${access.scope}`;
  return access.kind;
}

/** Every path and method in Fastify's own route tree, whoever registered it. */
function routesFromTree(tree: string): string[] {
  const found: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([^)]*)\))?$/u.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + match[2]!;
    stack.push(path);
    for (const method of match[3]?.split(', ') ?? []) found.push(`${method} ${path}`);
  }
  return found;
}

let ctx: TestContext;
let apiRoutes: RouteAccessRecord[];
beforeAll(async () => {
  ctx = await createTestApp();
  // HEAD routes are Fastify's automatic mirrors of GET routes, with the same declaration.
  apiRoutes = ctx.app.routeAccess.filter((r) => isApiRoute(r.url) && r.method !== 'HEAD');
});
afterAll(() => ctx.close());

describe('route access declarations', () => {
  it('lists every /api route with the access it declares', () => {
    const table = apiRoutes
      .map((r) => `${r.method.padEnd(7)}${r.url.padEnd(48)}${describeAccess(r.access)}`)
      .sort();
    const publicCount = apiRoutes.filter((r) => r.access?.kind === 'public').length;
    process.stdout.write(
      `\n/api routes: ${apiRoutes.length}, public: ${publicCount}\n${table.join('\n')}\n\n`,
    );
    expect(apiRoutes.length).toBeGreaterThanOrEqual(12);
    expect(apiRoutes.filter((r) => !r.access).map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it('records every /api route of the running app, whoever registered it', () => {
    const inTree = routesFromTree(ctx.app.printRoutes({ commonPrefix: false })).filter(
      (r) => isApiRoute(r.split(' ')[1]!) && !r.startsWith('HEAD '),
    );
    expect(inTree.length).toBe(apiRoutes.length);
    const recorded = new Set(apiRoutes.map((r) => `${r.method} ${r.url}`));
    expect(inTree.filter((r) => !recorded.has(r))).toEqual([]);
  });

  it('has no public route beyond the reviewed list', () => {
    const open = apiRoutes.filter((r) => r.access?.kind === 'public').map((r) => `${r.method} ${r.url}`);
    expect(open.filter((r) => !(r in PUBLIC_ROUTES))).toEqual([]);
    expect(open).toContain('POST /api/auth/auth-session/login');
  });

  it('refuses to start with an /api route that declares no access', async () => {
    const app = Fastify({ logger: false });
    await app.register(fp(async () => {}, { name: 'db' }));
    await app.register(accessPlugin, {
      allowedOrigins: [],
      findSession: async () => null,
      authenticateApiKey: async () => {
        throw new Error('no API keys here');
      },
    });
    expect(() => app.get('/api/undeclared', async () => 'open')).toThrow(/declares no access/);
    expect(() =>
      app.get('/api/declared', { config: { access: { kind: 'signedIn' } } }, async () => 'closed'),
    ).not.toThrow();
    await app.close();
  });
});

describe('roles and features routes need their declared scope', () => {
  const rolesFeature = FEATURES.roles.id;
  let tenant: string;
  let root: Session;
  const withScope = new Map<Scope, Session>();
  const withoutScope = new Map<Scope, Session>();
  let rolesBlind: Session;

  async function tenantRole(name: string, scopes: readonly Scope[], extra: object[] = []): Promise<string> {
    const res = await root.post('/api/auth/roles', {
      name,
      organizationId: tenant,
      permissions: [{ featureId: rolesFeature, permissionScopes: scopes }, ...extra],
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  }

  async function userWithRole(email: string, roleId: string): Promise<Session> {
    await createUserDirect(ctx, { email, roleId, organizationId: tenant });
    return signIn(ctx.app, email, STRONG_PASSWORD);
  }

  beforeAll(async () => {
    root = await signIn(ctx.app);
    tenant = await createOrganizationDirect(ctx, 'Scoped Co');
    for (const scope of ['READ', 'CREATE', 'UPDATE', 'DELETE'] as const) {
      const only = await tenantRole(`Only ${scope}`, [scope]);
      const others = await tenantRole(
        `All But ${scope}`,
        SCOPES.filter((s) => s !== scope),
      );
      withScope.set(scope, await userWithRole(`only-${scope.toLowerCase()}@scoped.test`, only));
      withoutScope.set(scope, await userWithRole(`no-${scope.toLowerCase()}@scoped.test`, others));
    }
    const blind = await tenantRole(
      'Support Only',
      [],
      [{ featureId: FEATURES.support.id, permissionScopes: ['READ'] }],
    );
    rolesBlind = await userWithRole('blind@scoped.test', blind);
  });

  /** How to call each route; a new roles or features route without an entry here fails the walk. */
  const calls: Record<
    string,
    (s: Session) => Promise<{ statusCode: number; body: string; json(): unknown }>
  > = {
    'GET /api/auth/features': (s) => s.get('/api/auth/features'),
    'GET /api/auth/roles': (s) => s.get('/api/auth/roles'),
    'GET /api/auth/roles/:id': async (s) =>
      s.get(
        `/api/auth/roles/${await tenantRole(`Target ${Math.random().toString(36).slice(2, 8)}`, ['READ'])}`,
      ),
    'POST /api/auth/roles': (s) =>
      s.post('/api/auth/roles', {
        name: `Made ${Math.random().toString(36).slice(2, 8)}`,
        permissions: [{ featureId: rolesFeature, permissionScopes: ['CREATE'] }],
      }),
    'PUT /api/auth/roles/:id': async (s) =>
      s.put(
        // A role within the editor's own scopes: editing a wider one is refused (roles.service.ts).
        `/api/auth/roles/${await tenantRole(`Edit ${Math.random().toString(36).slice(2, 8)}`, ['UPDATE'])}`,
        {
          name: `Edited ${Math.random().toString(36).slice(2, 8)}`,
          permissions: [{ featureId: rolesFeature, permissionScopes: ['UPDATE'] }],
        },
      ),
    // Roles UPDATE and the platform operator's grants (REQUIREMENTS.requireTwoFactor): two-factor.test.ts.
    'PUT /api/auth/roles/:id/two-factor': async (s) =>
      s.put(
        `/api/auth/roles/${await tenantRole(`Policy ${Math.random().toString(36).slice(2, 8)}`, ['READ'])}/two-factor`,
        {
          required: true,
        },
      ),
    'DELETE /api/auth/roles/:id': async (s) =>
      s.delete(
        `/api/auth/roles/${await tenantRole(`Drop ${Math.random().toString(36).slice(2, 8)}`, ['READ'])}`,
      ),
  };

  function ownRoutes() {
    return apiRoutes.filter((r) => r.url.startsWith('/api/auth/roles') || r.url === '/api/auth/features');
  }

  it('covers every roles and features route', () => {
    expect(
      ownRoutes()
        .map((r) => `${r.method} ${r.url}`)
        .sort(),
    ).toEqual(Object.keys(calls).sort());
  });

  it('answers 403 without the scope and 2xx with it, for each route needing one', async () => {
    const checked: string[] = [];
    for (const route of ownRoutes()) {
      const access = route.access!;
      if (access.kind !== 'permission' || route.url.endsWith('/two-factor')) continue;
      const call = calls[`${route.method} ${route.url}`]!;
      const denied = await call(withoutScope.get(access.scope)!);
      expect(denied.statusCode, `${route.method} ${route.url} without ${access.scope}`).toBe(403);
      expect((denied.json() as { message: string }).message).toBe(messages.http.forbidden);
      const blind = await call(rolesBlind);
      expect(blind.statusCode, `${route.method} ${route.url} with no role scope`).toBe(403);
      const allowed = await call(withScope.get(access.scope)!);
      expect([200, 201], `${route.method} ${route.url} with ${access.scope}: ${allowed.body}`).toContain(
        allowed.statusCode,
      );
      checked.push(`${route.method} ${route.url}`);
    }
    expect(checked).toHaveLength(5);
  });

  it('lets any signed-in user read the features, and nobody without a session', async () => {
    expect((await calls['GET /api/auth/features']!(rolesBlind)).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/auth/features' })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/auth/roles' })).statusCode).toBe(401);
  });
});
