import { randomUUID } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { apiAs, expect, latestLinkTo, tenCreditsSubscription } from './fixtures';

/**
 * One tenant with each kind of user, built through the API for the specs that visit every screen as
 * each of them (walkthrough, phone): a tenant admin onboarded with a subscription and a manual
 * payment, a custom role, a member who holds it, a position and a support ticket. The super
 * administrator is the portal's own (SUPER_ADMIN).
 */

/** What the custom role may do: read most things, raise tickets, create positions. */
const CUSTOM_SCOPES = [
  { featureId: 'dashboard', permissionScopes: ['READ'] },
  { featureId: 'user-management', permissionScopes: ['READ'] },
  { featureId: 'role-management', permissionScopes: ['READ'] },
  { featureId: 'position-management', permissionScopes: ['READ', 'CREATE'] },
  { featureId: 'support', permissionScopes: ['READ', 'CREATE'] },
];

/** The names of a scenario's people and role: known before it is set up, unique to this run. */
export function planScenario(label: string) {
  const tag = randomUUID().slice(0, 8);
  return {
    tag,
    admin: {
      username: `${label}.admin.${tag}`,
      email: `${label}.admin.${tag}@acme.test`,
      password: 'Walk-Admin-Passw0rd!',
      client: `${label} ${tag}`,
      organizationId: randomUUID(),
    },
    member: {
      username: `${label}.member.${tag}`,
      email: `${label}.member.${tag}@acme.test`,
      password: 'Walk-Member-Passw0rd!',
    },
    customRole: `${label} Viewer ${tag}`,
  };
}
export type ScenarioPlan = ReturnType<typeof planScenario>;

/** The ids the server gave the scenario's records. */
export interface ScenarioIds {
  adminId: string;
  adminRoleId: string;
  customRoleId: string;
  /** The ticket's TICKET-… display id. */
  ticketId: string;
}

/** Follows the newest invitation or reset link sent to `email` and sets the password. */
export async function setPasswordThroughLink(page: Page, email: string, password: string) {
  const link = await latestLinkTo(email);
  expect(link).toMatch(/\/auth\/reset-password\?token=/);
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByText('Your password has been set. You can now sign in.')).toBeVisible();
}

/** Creates the scenario's records (about 5 s); the admin and the member set their passwords by email. */
export async function setUpScenario(browser: Browser, plan: ScenarioPlan): Promise<ScenarioIds> {
  const { adminId, adminRoleId } = await onboardAdmin(plan);
  const page = await browser.newPage();
  try {
    await setPasswordThroughLink(page, plan.admin.email, plan.admin.password);
    const made = await fillTenant(plan);
    await setPasswordThroughLink(page, plan.member.email, plan.member.password);
    return { adminId, adminRoleId, ...made };
  } finally {
    await page.close();
  }
}

/** The super administrator onboards the tenant admin with a subscription and a manual payment, in one call. */
async function onboardAdmin({ tag, admin: ADMIN }: ScenarioPlan) {
  const root = await apiAs();
  try {
    const roles = (await root.get('/auth/roles?search=admin&pageSize=100')) as {
      data: { id: string; name: string }[];
    };
    const adminRoleId = roles.data.find((r) => r.name === 'admin')!.id;
    const onboarded = (await root.post(
      '/auth/onboarding',
      {
        user: {
          username: ADMIN.username,
          email: ADMIN.email,
          mobileNo: '9876543210',
          client: ADMIN.client,
          organizationId: ADMIN.organizationId,
        },
        subscription: tenCreditsSubscription(),
        payment: {
          transactionId: `UTR-${tag}`,
          paymentMethod: 'upi',
          paymentDate: new Date().toISOString().slice(0, 10),
        },
      },
      { 'Idempotency-Key': `scenario-${tag}` },
    )) as { data: { user: { id: string } } };
    return { adminId: onboarded.data.user.id, adminRoleId };
  } finally {
    await root.dispose();
  }
}

/** The admin makes a custom role, a member who holds it, and a little data for the lists. */
async function fillTenant({ tag, admin: ADMIN, member: MEMBER, customRole }: ScenarioPlan) {
  const admin = await apiAs(ADMIN.email, ADMIN.password);
  try {
    const created = (await admin.post('/auth/roles', {
      name: customRole,
      permissions: CUSTOM_SCOPES,
    })) as {
      data: { id: string };
    };
    const customRoleId = created.data.id;
    await admin.post('/auth/auth-session/register', {
      email: MEMBER.email,
      username: MEMBER.username,
      mobileNo: '9876543211',
      client: ADMIN.client,
      organizationId: ADMIN.organizationId,
      roleId: customRoleId,
    });
    await admin.post('/auth/positions', {
      title: `Backend engineer ${tag}`,
      department: 'Engineering',
      location: 'Pune',
      openings: 2,
    });
    const ticket = (await admin.post('/auth/support/tickets', {
      message: `Scenario ticket ${tag}`,
      type: 'feedback',
    })) as { data: { ticketId: string } };
    return { customRoleId, ticketId: ticket.data.ticketId };
  } finally {
    await admin.dispose();
  }
}

/**
 * The pages every signed-in user is taken to by address, after home, as [screen, path]; what a role
 * may not use shows its refusal.
 */
export function pagesByAddress(ids: ScenarioIds): [screen: string, path: string][] {
  return [
    ['home-logindashboard', '/logindashboard'],
    ['positions', '/dashboard/positions'],
    ['activity', '/dashboard/activity'],
    ['profile', '/dashboard/profile'],
    ['settings', '/dashboard/settings'],
    ['support', '/dashboard/support'],
    ['billing', '/dashboard/billing'],
    ['invoices', '/dashboard/invoices'],
    ['register', '/dashboard/register'],
    ['usermanagement', '/dashboard/usermanagement'],
    ['inviteuser', '/dashboard/inviteuser'],
    ['userroles', '/dashboard/userroles'],
    ['addrole', '/dashboard/addrole'],
    ['userpermissions', `/dashboard/userpermissions/${ids.customRoleId}`],
    ['userpermissions-admin', `/dashboard/userpermissions/${ids.adminRoleId}`],
  ];
}
