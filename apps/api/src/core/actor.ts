import { hasPermission, type FeatureKey, type PermissionEntry, type Scope } from '@portal/shared';

/**
 * Who a service acts for. Every exported service function takes `(deps, actor, input)`; the actor is
 * one of three kinds, and a service names the kinds it accepts in its parameter type.
 */
export type AnyActor = Actor | Visitor | SystemActor;

/** A signed-in user, as the access plugin established it for this request. */
export interface Actor {
  kind: 'user';
  userId: string;
  organizationId: string;
  roleId: string;
  roleName: string;
  isSuperAdmin: boolean;
  permissions: PermissionEntry[];
  sessionId: string;
  familyId: string;
  twoFactor: { enabled: boolean; required: boolean };
}

/** Someone not signed in (sign-in, password recovery, webhooks): known only by what they send. */
export interface Visitor {
  kind: 'visitor';
  /** The client address as trusted configuration allows (lib/client-address.ts). */
  address: string;
  userAgent: string | undefined;
}

/** The portal itself: scheduled work, the operator's command line, a provider's webhook. */
export interface SystemActor {
  kind: 'system';
  /** What is acting, for logs and the activity feed ("housekeeping", "cli", "webhook"). */
  name: string;
}

export function systemActor(name: string): SystemActor {
  return { kind: 'system', name };
}

/** The organization a request is confined to: null for the super administrator (every tenant). */
export function tenantScope(actor: Pick<Actor, 'isSuperAdmin' | 'organizationId'>): string | null {
  return actor.isSuperAdmin ? null : actor.organizationId;
}

export function can(
  actor: Pick<Actor, 'isSuperAdmin' | 'permissions'>,
  feature: FeatureKey,
  scope: Scope,
): boolean {
  return actor.isSuperAdmin || hasPermission(actor.permissions, feature, scope);
}
