import { useMemo } from 'react';
import {
  hasPermission,
  mayManage,
  meets,
  SYSTEM_ROLES,
  type FeatureKey,
  type PermissionEntry,
  type PermissionHolder,
  type Requirement,
  type Scope,
} from '@portal/shared';
import { allows, PAGE_ACCESS } from '../page-access';
import { useAuth } from './auth-context';

export interface Permissions {
  holder: PermissionHolder;
  /** One scope of one feature. */
  can(feature: FeatureKey, scope: Scope): boolean;
  /** A named requirement of several scopes (`REQUIREMENTS`), as the server checks it. */
  meets(requirement: Requirement): boolean;
  /** Whether the user may act on someone holding, or on a role granting, `granted`. */
  mayManage(granted: readonly Pick<PermissionEntry, 'featureId' | 'permissionScopes'>[]): boolean;
  /**
   * Whether the user may open a page below {prefix} ('' is home), with the query and navigation state
   * a link to it carries: links and buttons to a page show only then.
   */
  mayOpen(path: string, target?: { search?: string; state?: unknown }): boolean;
}

/**
 * What the signed-in user may do, from the same data and the same shared rules the server enforces
 * (role.permissions, stored as FeaturesPermissions). Controls are shown only when their action is
 * allowed; the server checks again.
 */
export function usePermissions(): Permissions {
  const { user } = useAuth();
  return useMemo(() => {
    const holder: PermissionHolder = {
      isSuperAdmin: user?.role.name === SYSTEM_ROLES.superAdmin,
      permissions: user?.role.permissions ?? [],
    };
    const signedIn = !!user;
    return {
      holder,
      can: (feature, scope) =>
        signedIn && (holder.isSuperAdmin || hasPermission(holder.permissions, feature, scope)),
      meets: (requirement) => signedIn && meets(holder, requirement),
      mayManage: (granted) =>
        signedIn &&
        mayManage({ isSuperAdmin: holder.isSuperAdmin, permissions: user?.role.permissions ?? [] }, granted),
      mayOpen: (path, target = {}) =>
        signedIn &&
        allows(PAGE_ACCESS[path], holder, { search: target.search ?? '', state: target.state ?? null }),
    };
  }, [user]);
}
