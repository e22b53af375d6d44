import { describe, expect, it } from 'vitest';
import {
  ADMIN_ROLE_PERMISSIONS,
  FEATURES,
  SCOPES,
  type FeatureKey,
  type PermissionEntry,
  type Scope,
} from '@portal/shared';
import { allows, PAGE_ACCESS } from './page-access';

function holder(grants: Partial<Record<FeatureKey, readonly Scope[]>>, isSuperAdmin = false) {
  const permissions: PermissionEntry[] = Object.entries(grants).map(([key, scopes]) => {
    const f = FEATURES[key as FeatureKey];
    return { id: f.id, featureId: f.id, featureName: f.name, permissionScopes: [...scopes!] };
  });
  return { isSuperAdmin, permissions };
}

const nowhere = { search: '', state: null };
const tenantAdmin = holder(ADMIN_ROLE_PERMISSIONS);
const superAdmin = holder({}, true);

describe('what each page needs', () => {
  it('keeps starting a new tenant to the platform, but lets a tenant admin edit its users', () => {
    expect(allows(PAGE_ACCESS.inviteuser, tenantAdmin, nowhere)).toBe(false);
    expect(allows(PAGE_ACCESS.inviteuser, tenantAdmin, { search: '?edit=u1', state: null })).toBe(true);
    expect(allows(PAGE_ACCESS.subscription, tenantAdmin, nowhere)).toBe(false);
    expect(allows(PAGE_ACCESS.manualPayment, tenantAdmin, nowhere)).toBe(false);
    for (const page of ['inviteuser', 'subscription', 'manualPayment', 'usermanagement']) {
      expect(allows(PAGE_ACCESS[page], superAdmin, nowhere), page).toBe(true);
    }
  });

  it('tells adding a role (CREATE) from editing one (UPDATE) by the navigation state', () => {
    const creator = holder({ roles: ['READ', 'CREATE'] });
    expect(allows(PAGE_ACCESS.addrole, creator, { search: '', state: { isEditing: false } })).toBe(true);
    expect(allows(PAGE_ACCESS.addrole, creator, { search: '', state: { isEditing: true } })).toBe(false);
  });

  it('opens Support to a user who can raise tickets or read them', () => {
    expect(allows(PAGE_ACCESS.support, holder({ support: ['CREATE'] }), nowhere)).toBe(true);
    expect(allows(PAGE_ACCESS.support, holder({ support: ['READ'] }), nowhere)).toBe(true);
    expect(allows(PAGE_ACCESS.support, holder({ positions: ['READ'] }), nowhere)).toBe(false);
  });

  it('keeps Billing, about one’s own subscription, to tenants', () => {
    expect(allows(PAGE_ACCESS.billing, tenantAdmin, nowhere)).toBe(true);
    expect(allows(PAGE_ACCESS.billing, superAdmin, nowhere)).toBe(false);
  });

  it('opens Invoices to whoever reads subscriptions: the super administrator and tenant admins', () => {
    expect(allows(PAGE_ACCESS.invoices, tenantAdmin, nowhere)).toBe(true);
    expect(allows(PAGE_ACCESS.invoices, superAdmin, nowhere)).toBe(true);
    expect(allows(PAGE_ACCESS.invoices, holder({ positions: ['READ'] }), nowhere)).toBe(false);
  });

  it('keeps Undelivered mail, the whole portal’s, to the super administrator, whatever a role grants', () => {
    expect(allows(PAGE_ACCESS.mail, superAdmin, nowhere)).toBe(true);
    expect(allows(PAGE_ACCESS.mail, tenantAdmin, nowhere)).toBe(false);
    // Every scope of every feature is still a tenant's role, not the platform operator.
    const everything = holder(
      Object.fromEntries(Object.keys(FEATURES).map((key) => [key, SCOPES])) as Partial<
        Record<FeatureKey, readonly Scope[]>
      >,
    );
    expect(allows(PAGE_ACCESS.mail, everything, nowhere)).toBe(false);
  });

  it('keeps Renewals, every organization’s, to the super administrator', () => {
    expect(allows(PAGE_ACCESS.renewals, superAdmin, nowhere)).toBe(true);
    expect(allows(PAGE_ACCESS.renewals, tenantAdmin, nowhere)).toBe(false);
  });

  it('opens each kind’s import, and each import of it, to holders of the kind’s IMPORT only', () => {
    const usersImporter = holder({ users: ['READ', 'IMPORT'] });
    for (const page of ['imports/users', 'imports/users/:id']) {
      expect(allows(PAGE_ACCESS[page], usersImporter, nowhere), page).toBe(true);
      expect(allows(PAGE_ACCESS[page], holder({ users: ['READ', 'CREATE', 'UPDATE'] }), nowhere), page).toBe(
        false,
      );
    }
    expect(allows(PAGE_ACCESS['imports/positions'], usersImporter, nowhere)).toBe(false);
    expect(allows(PAGE_ACCESS['imports/positions'], tenantAdmin, nowhere)).toBe(true);
    // Organizations are imported by whoever may import them: the platform operator.
    expect(allows(PAGE_ACCESS['imports/organizations'], tenantAdmin, nowhere)).toBe(false);
    expect(allows(PAGE_ACCESS['imports/organizations/:id'], superAdmin, nowhere)).toBe(true);
    // A kind that does not exist is no page at all (the route table has no route for it).
    expect(PAGE_ACCESS['imports/widgets']).toBeUndefined();
  });

  it('leaves a page with no entry (profile, settings) to everyone signed in', () => {
    expect(allows(PAGE_ACCESS.profile, holder({}), nowhere)).toBe(true);
  });
});
