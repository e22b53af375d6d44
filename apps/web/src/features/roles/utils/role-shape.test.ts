import { describe, expect, it } from 'vitest';
import { FEATURES, messages } from '@portal/shared';
import { featuresFromBody, FeaturesShapeError, formatRoleId, roleFromBody } from './role-shape';
import { gridFromRole, payloadFromGrid, roleFormError, viewOnlyPermissions } from './role-form';
import { testFeatures } from '../test-utils';

describe('role id display', () => {
  it('shows temp- ids as #TEMP plus the upper-cased remainder, others as #id', () => {
    expect(formatRoleId('temp-ab12x')).toBe('#TEMPAB12X');
    expect(formatRoleId('0f8e-11')).toBe('#0f8e-11');
  });
});

describe('features from the API', () => {
  it('accepts a bare list or a data list, with the SPEC defaults', () => {
    const bare = featuresFromBody([{ id: 'x' }, { id: 'y', name: 'Reports' }]);
    expect(bare).toEqual([
      { id: 'x', name: 'Unknown Feature', description: 'Unknown Feature functionality' },
      { id: 'y', name: 'Reports', description: 'Reports functionality' },
    ]);
    expect(featuresFromBody({ success: true, data: testFeatures })).toEqual(testFeatures);
  });

  it('refuses an answer without a list', () => {
    expect(() => featuresFromBody({ success: true, data: {} })).toThrow(FeaturesShapeError);
    expect(() => featuresFromBody(null)).toThrow(messages.roles.noFeaturesInResponse);
  });
});

describe('roles from the API', () => {
  it('reads the legacy bitmask shape into the list shape and ignores unknown scopes', () => {
    const role = roleFromBody({
      id: 'r1',
      name: 'Old',
      permissions: [
        { featureId: 'support', permissions: 1 | 4 | 32 },
        { featureName: 'User Management', permissionScopes: ['read', 'FLY', 'DELETE'] },
      ],
    });
    expect(role.code).toBe('Old');
    expect(role.permissions.map((p) => p.permissionScopes)).toEqual([
      ['READ', 'UPDATE', 'IMPORT'],
      ['READ', 'DELETE'],
    ]);
    expect(gridFromRole(role, testFeatures)).toEqual({
      support: ['READ', 'UPDATE', 'IMPORT'],
      'user-management': ['READ', 'DELETE'],
    });
  });

  it('accepts a direct role or one wrapped in data, and refuses garbage', () => {
    expect(roleFromBody({ id: 'r2', name: 'A' }).name).toBe('A');
    expect(roleFromBody({ success: true, data: { id: 'r3', name: 'B' } }).id).toBe('r3');
    expect(() => roleFromBody({ success: true })).toThrow(messages.fallback.invalidRoleData);
  });
});

describe('role form', () => {
  it('puts the name rules before the permission rule', () => {
    expect(roleFormError('', {})).toEqual({ field: 'name', message: messages.roles.nameRequired });
    expect(roleFormError(' ab ', {})).toEqual({ field: 'name', message: messages.roles.nameTooShort });
    expect(roleFormError('a@b', {})).toEqual({ field: 'name', message: messages.roles.nameInvalid });
    expect(roleFormError('Good', { support: [] })).toEqual({
      field: 'permissions',
      message: messages.roles.permissionRequired,
    });
    expect(roleFormError('Good', { support: ['READ'] })).toBeNull();
  });

  it('leaves out features with no ticked scope and keeps scopes in order', () => {
    let n = 0;
    const payload = payloadFromGrid(
      ' Team ',
      { support: ['EXPORT', 'READ'], dashboard: [] },
      testFeatures,
      () => `id-${++n}`,
    );
    expect(payload).toEqual({
      code: 'Team',
      name: 'Team',
      isSystem: false,
      permissions: [
        { id: 'id-1', featureId: 'support', featureName: 'Support', permissionScopes: ['READ', 'EXPORT'] },
      ],
    });
  });

  it('groups scopes for the view-only screen; Dashboard delete is not available', () => {
    const rows = viewOnlyPermissions(
      {
        permissions: [
          {
            id: '1',
            featureId: FEATURES.dashboard.id,
            featureName: 'Dashboard',
            permissionScopes: ['READ', 'DELETE'],
          },
          {
            id: '2',
            featureId: FEATURES.users.id,
            featureName: 'User Management',
            permissionScopes: ['UPDATE'],
          },
        ],
      },
      testFeatures,
    );
    expect(rows[0]).toMatchObject({
      name: 'Dashboard',
      view: true,
      createEdit: false,
      delete: false,
      deleteDisabledSpecial: true,
    });
    expect(rows[1]).toMatchObject({
      name: 'User Management',
      view: false,
      createEdit: true,
      delete: false,
      deleteDisabledSpecial: false,
    });
    expect(rows).toHaveLength(testFeatures.length);
  });
});
