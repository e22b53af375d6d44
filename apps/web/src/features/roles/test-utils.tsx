import { expect } from 'vitest';
import { FEATURES, SCOPES, type Feature } from '@portal/shared';
import { aUser, permission } from '../../test/users';

/** The seeded features, as GET /auth/features answers them. */
export const testFeatures: Feature[] = Object.values(FEATURES).map((f) => ({
  id: f.id,
  name: f.name,
  description: f.description,
}));

/** Holds every scope on Role Management but only READ elsewhere. */
export const roleManager = aUser({
  role: 'Role Manager',
  permissions: [
    permission('roles', SCOPES),
    permission('users', ['READ']),
    permission('support', ['READ', 'EXPORT']),
  ],
});

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
