import { expect } from 'vitest';
import {
  FEATURES,
  SCOPES,
  type Feature,
  type PermissionEntry,
  type Role,
  type Scope,
  type User,
} from '@portal/shared';

/** The seeded features, as GET /auth/features answers them. */
export const testFeatures: Feature[] = Object.values(FEATURES).map((f) => ({
  id: f.id,
  name: f.name,
  description: f.description,
}));

export function entry(featureKey: keyof typeof FEATURES, scopes: Scope[]): PermissionEntry {
  const f = FEATURES[featureKey];
  return { id: `p-${f.id}`, featureId: f.id, featureName: f.name, permissionScopes: scopes };
}

export function testRole(overrides: Partial<Role> = {}): Role {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    code: 'Recruiter',
    name: 'Recruiter',
    isSystem: false,
    organizationId: '22222222-2222-4222-8222-222222222222',
    organizationName: 'Acme Hiring',
    permissions: [entry('users', ['READ'])],
    requireTwoFactor: false,
    userCount: 0,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** A signed-in user whose role holds `permissions` (super_admin holds everything). */
export function testUser(roleName: string, permissions: PermissionEntry[] = []): User {
  return {
    id: 'u1',
    username: 'tester',
    email: 'tester@example.test',
    fullName: null,
    mobileNo: null,
    enabled: true,
    isActive: true,
    isSubscription: true,
    client: 'Acme',
    roleId: 'r1',
    role: { id: 'r1', name: roleName, isSystem: false, permissions },
    organizationId: '22222222-2222-4222-8222-222222222222',
    isAdmin: false,
    inviteStatus: 'accepted',
    profileImage: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };
}

export const superAdmin = testUser('super_admin');
/** Holds every scope on Role Management but only READ elsewhere. */
export const roleManager = testUser('Role Manager', [
  entry('roles', [...SCOPES]),
  entry('users', ['READ']),
  entry('support', ['READ', 'EXPORT']),
]);

/*
 * The few DOM matchers these tests use (the project has no jest-dom). Each reports what it saw.
 */
interface DomMatchers<R = unknown> {
  toBeInTheDocument(): R;
  toBeDisabled(): R;
  toBeEnabled(): R;
  toBeChecked(): R;
  toHaveValue(value: string): R;
  toHaveAttribute(name: string, value: string): R;
}
declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any
  interface Assertion<T = any> extends DomMatchers<T> {}
}

function isDisabled(el: Element): boolean {
  return (el as HTMLButtonElement).disabled === true || el.getAttribute('aria-disabled') === 'true';
}

expect.extend({
  toBeInTheDocument(received: Element | null) {
    const pass = received !== null && received.ownerDocument.contains(received);
    return { pass, message: () => `expected element ${pass ? 'not ' : ''}to be in the document` };
  },
  toBeDisabled(received: Element) {
    const pass = isDisabled(received);
    return {
      pass,
      message: () => `expected ${received.outerHTML.slice(0, 120)} ${pass ? 'not ' : ''}to be disabled`,
    };
  },
  toBeEnabled(received: Element) {
    const pass = !isDisabled(received);
    return {
      pass,
      message: () => `expected ${received.outerHTML.slice(0, 120)} ${pass ? 'not ' : ''}to be enabled`,
    };
  },
  toBeChecked(received: HTMLInputElement) {
    const pass = received.checked === true;
    return {
      pass,
      message: () => `expected ${received.getAttribute('aria-label')} ${pass ? 'not ' : ''}to be checked`,
    };
  },
  toHaveValue(received: HTMLInputElement, value: string) {
    const pass = received.value === value;
    return {
      pass,
      message: () => `expected value ${JSON.stringify(value)}, got ${JSON.stringify(received.value)}`,
    };
  },
  toHaveAttribute(received: Element, name: string, value: string) {
    const actual = received.getAttribute(name);
    const pass = actual === value;
    return {
      pass,
      message: () => `expected ${name}=${JSON.stringify(value)}, got ${JSON.stringify(actual)}`,
    };
  },
});
