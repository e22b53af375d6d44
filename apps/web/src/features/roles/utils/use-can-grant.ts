import { useCallback } from 'react';
import type { Feature, Scope } from '@portal/shared';
import { usePermissions } from '../../../lib/session/use-permission';

/** The server refuses to grant a scope the user does not hold; the editor says so up front. */
export function useCanGrant(): (feature: Feature, scope: Scope) => boolean {
  const { holder } = usePermissions();
  return useCallback(
    (feature: Feature, scope: Scope) =>
      holder.isSuperAdmin ||
      holder.permissions.some(
        (p) =>
          (p.featureId === feature.id || p.featureName === feature.name) &&
          p.permissionScopes.includes(scope),
      ),
    [holder],
  );
}
