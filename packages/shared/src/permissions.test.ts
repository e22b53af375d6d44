import { describe, expect, it } from 'vitest';
import {
  ADMIN_ROLE_PERMISSIONS,
  FEATURES,
  holdsAll,
  mayManage,
  meets,
  REQUIREMENTS,
  type FeatureKey,
  type PermissionEntry,
  type Scope,
} from './permissions.js';

function entries(grants: Partial<Record<FeatureKey, readonly Scope[]>>): PermissionEntry[] {
  return Object.entries(grants).map(([key, scopes]) => {
    const feature = FEATURES[key as FeatureKey];
    return {
      id: feature.id,
      featureId: feature.id,
      featureName: feature.name,
      permissionScopes: [...scopes!],
    };
  });
}

const admin = { isSuperAdmin: false, permissions: entries(ADMIN_ROLE_PERMISSIONS) };
const superAdmin = { isSuperAdmin: true, permissions: [] };

describe('meets', () => {
  it('needs every grant of `all` and one of `any`', () => {
    const holder = { isSuperAdmin: false, permissions: entries({ support: ['CREATE'], users: ['READ'] }) };
    expect(meets(holder, { all: [['users', 'READ']] })).toBe(true);
    expect(
      meets(holder, {
        all: [
          ['users', 'READ'],
          ['users', 'CREATE'],
        ],
      }),
    ).toBe(false);
    expect(
      meets(holder, {
        any: [
          ['support', 'READ'],
          ['support', 'CREATE'],
        ],
      }),
    ).toBe(true);
    expect(
      meets(holder, {
        any: [
          ['support', 'READ'],
          ['support', 'DELETE'],
        ],
      }),
    ).toBe(false);
    expect(meets(holder, {})).toBe(true);
  });

  it('keeps onboarding a new tenant to the platform: the admin role does not meet it', () => {
    expect(meets(admin, REQUIREMENTS.onboardOrganization)).toBe(false);
    expect(meets(admin, REQUIREMENTS.recordPlatformBilling)).toBe(false);
    expect(meets(superAdmin, REQUIREMENTS.onboardOrganization)).toBe(true);
  });
});

describe('holdsAll and mayManage', () => {
  it('allow acting on a narrower or equal role only', () => {
    const narrow = entries({ users: ['READ'] });
    const wider = entries({ users: ['READ', 'DELETE'] });
    expect(holdsAll(admin.permissions, narrow)).toBe(true);
    expect(holdsAll(admin.permissions, admin.permissions)).toBe(true);
    expect(holdsAll(admin.permissions, wider)).toBe(false);
    expect(mayManage(admin, wider)).toBe(false);
    expect(mayManage(superAdmin, wider)).toBe(true);
  });
});
