import { useCallback } from 'react';
import { SYSTEM_ROLES, type Feature, type Scope } from '@portal/shared';
import { useAuth } from '../../auth/auth-context';

/** The server refuses to grant a scope the user does not hold; the editor says so up front. */
export function useCanGrant(): (feature: Feature, scope: Scope) => boolean {
  const { user } = useAuth();
  return useCallback(
    (feature: Feature, scope: Scope) => {
      if (!user) return false;
      if (user.role.name === SYSTEM_ROLES.superAdmin) return true;
      return user.role.permissions.some(
        (p) =>
          (p.featureId === feature.id || p.featureName === feature.name) &&
          p.permissionScopes.includes(scope),
      );
    },
    [user],
  );
}
