import { useCallback } from 'react';
import { hasPermission, SYSTEM_ROLES, type FeatureKey, type Scope } from '@portal/shared';
import { useAuth } from './auth-context';

/**
 * Hides what the user may not do, from the same data the server enforces (role.permissions,
 * stored as FeaturesPermissions). The server checks again; this only keeps controls honest.
 */
export function useCan(): (feature: FeatureKey, scope: Scope) => boolean {
  const { user } = useAuth();
  return useCallback(
    (feature: FeatureKey, scope: Scope) =>
      !!user &&
      (user.role.name === SYSTEM_ROLES.superAdmin || hasPermission(user.role.permissions, feature, scope)),
    [user],
  );
}

export function usePermission(feature: FeatureKey, scope: Scope): boolean {
  return useCan()(feature, scope);
}
