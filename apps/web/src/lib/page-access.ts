import type { Location } from 'react-router';
import {
  IMPORT_KIND_FEATURE,
  IMPORT_KINDS,
  meets,
  REQUIREMENTS,
  type FeatureKey,
  type PermissionHolder,
  type Requirement,
  type Scope,
} from '@portal/shared';

/** What a page of the route table needs; the guard shows it only to users who meet it. */
export interface PageAccess {
  /** A function when the need depends on the address: editing needs UPDATE where adding needs CREATE. */
  requires?: Requirement | ((location: Pick<Location, 'search' | 'state'>) => Requirement);
  /** About the signed-in user's own organization's subscription: not a page for the super administrator. */
  tenantOnly?: boolean;
  /**
   * The platform operator's own page (the whole portal's undelivered mail, every organization's
   * renewals): the super administrator's role, not any scope a tenant's role could be granted.
   */
  superAdminOnly?: boolean;
}

const needs = (...grants: (readonly [FeatureKey, Scope])[]): Requirement => ({ all: grants });

/**
 * The onboarding screens (invite, subscription, manual payment) start a new tenant, and end on the
 * Admin Users list, so they need that list too.
 */
const onboarding = needs(...REQUIREMENTS.onboardOrganization.all, ['users', 'READ']);

/**
 * The invite form edits a user with `?edit=` and otherwise starts a new tenant's onboarding; either
 * way it reads the roles (the admin role's id) and ends on the Admin Users list.
 */
const inviteForm: PageAccess = {
  requires: ({ search }) =>
    new URLSearchParams(search).has('edit')
      ? needs(['users', 'UPDATE'], ['users', 'READ'], ['roles', 'READ'])
      : needs(...(onboarding.all ?? []), ['roles', 'READ']),
};

/**
 * Each kind's import (imports/users, …) and one import of it (imports/users/:id): the kind's feature
 * IMPORT, as the server checks on every import route. A kind not listed has no route, so its address
 * is the app's not-found.
 */
const importPages: Record<string, PageAccess> = Object.fromEntries(
  IMPORT_KINDS.flatMap((kind) => {
    const access: PageAccess = { requires: needs([IMPORT_KIND_FEATURE[kind], 'IMPORT']) };
    return [
      [`imports/${kind}`, access],
      [`imports/${kind}/:id`, access],
    ];
  }),
);

/**
 * What each page below {prefix} needs, by its path in the route table (app/routes.tsx attaches it to
 * the route; the guard, the sidebar and every link to a page read it here). A page not listed is open
 * to every signed-in user. Each requirement covers the calls the page makes to do its job.
 */
export const PAGE_ACCESS: Record<string, PageAccess> = {
  usermanagement: { requires: needs(['users', 'READ']) },
  'usermanagement/invite': inviteForm,
  inviteuser: inviteForm,
  // The role list fills the form's role choice.
  register: { requires: needs(['users', 'CREATE'], ['roles', 'READ']) },
  activity: { requires: needs(['dashboard', 'READ']) },
  positions: { requires: needs(['positions', 'READ']) },
  userroles: { requires: needs(['roles', 'READ']) },
  // Either way the editor ends on the roles list.
  addrole: {
    requires: ({ state }) =>
      (state as { isEditing?: boolean } | null)?.isEditing
        ? needs(['roles', 'UPDATE'], ['roles', 'READ'])
        : needs(['roles', 'CREATE'], ['roles', 'READ']),
  },
  userpermissions: { requires: needs(['roles', 'READ']) },
  'userpermissions/:roleId': { requires: needs(['roles', 'READ']) },
  support: {
    requires: {
      any: [
        ['support', 'READ'],
        ['support', 'CREATE'],
      ],
    },
  },
  subscription: { requires: onboarding },
  'usermanagement/subscription': { requires: onboarding },
  manualPayment: { requires: onboarding },
  billing: { requires: needs(['subscriptions', 'READ']), tenantOnly: true },
  // The super administrator sees every organization's; a tenant its own.
  invoices: { requires: needs(['subscriptions', 'READ']) },
  mail: { superAdminOnly: true },
  // Every organization's renewals; a tenant sees its own on Billing.
  renewals: { superAdminOnly: true },
  ...importPages,
};

export function allows(
  access: PageAccess | undefined,
  holder: PermissionHolder,
  location: Pick<Location, 'search' | 'state'>,
): boolean {
  if (!access) return true;
  if (access.tenantOnly && holder.isSuperAdmin) return false;
  if (access.superAdminOnly && !holder.isSuperAdmin) return false;
  const requirement = typeof access.requires === 'function' ? access.requires(location) : access.requires;
  return !requirement || meets(holder, requirement);
}
