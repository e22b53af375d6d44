import {
  ADMIN_ROLE_PERMISSIONS,
  FEATURES,
  type CreditNote,
  type FeatureKey,
  type Invoice,
  type User,
} from '@portal/shared';

export const ORG_ID = '33333333-3333-4333-8333-333333333333';

function user(roleName: string, permissions: User['role']['permissions']): User {
  return {
    id: `u-${roleName}`,
    username: roleName,
    email: `${roleName}@acme.test`,
    fullName: null,
    mobileNo: null,
    enabled: true,
    isActive: true,
    isSubscription: true,
    client: 'Acme',
    roleId: `r-${roleName}`,
    role: { id: `r-${roleName}`, name: roleName, isSystem: true, permissions },
    organizationId: ORG_ID,
    isAdmin: true,
    inviteStatus: 'accepted',
    profileImage: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };
}

/** The super administrator: every scope, every organization. */
export const superAdminUser = user('super_admin', []);

/** A tenant's admin, with the admin system role's scopes. */
export const tenantAdminUser = user(
  'admin',
  Object.entries(ADMIN_ROLE_PERMISSIONS).map(([key, scopes]) => {
    const f = FEATURES[key as FeatureKey];
    return { id: `p-${f.id}`, featureId: f.id, featureName: f.name, permissionScopes: [...scopes] };
  }),
);

/** An invoice of ₹1,180.00 (₹1,000 + 18 % GST within Karnataka) as the API lists it. */
export function makeInvoice(overrides: Partial<Invoice> = {}): Invoice {
  return {
    id: 'inv-1',
    number: 'IC/26-27/000001',
    financialYear: '26-27',
    // 10 April 2026, 00:30 in India: still 9 April in UTC.
    issuedAt: '2026-04-09T19:00:00.000Z',
    organizationId: ORG_ID,
    buyerName: 'Acme Hiring',
    buyerGstin: '29AAACI1234H1ZU',
    placeOfSupplyCode: '29',
    intraState: true,
    paymentId: 'pay-1',
    quantity: 10,
    taxableValuePaise: 100_000,
    taxRateBp: 1800,
    cgstPaise: 9_000,
    sgstPaise: 9_000,
    igstPaise: 0,
    totalPaise: 118_000,
    refundedPaise: 0,
    ...overrides,
  };
}

export function makeCreditNote(overrides: Partial<CreditNote> = {}): CreditNote {
  return {
    id: 'cn-1',
    number: 'CN/26-27/000001',
    financialYear: '26-27',
    issuedAt: '2026-05-02T06:00:00.000Z',
    organizationId: ORG_ID,
    buyerName: 'Acme Hiring',
    buyerGstin: null,
    placeOfSupplyCode: '29',
    intraState: true,
    invoiceId: 'inv-1',
    invoiceNumber: 'IC/26-27/000001',
    paymentId: 'pay-1',
    refundId: 'rfnd_1',
    reason: 'Bought twice by mistake',
    creditsTakenBack: 5,
    taxableValuePaise: 50_000,
    taxRateBp: 1800,
    cgstPaise: 4_500,
    sgstPaise: 4_500,
    igstPaise: 0,
    totalPaise: 59_000,
    ...overrides,
  };
}
