import { messages, type FeatureKey, type Scope } from '@portal/shared';

export interface NavItem {
  label: string;
  /** Path below the current prefix ({prefix}/{path}); '' is the home page. */
  path: string;
  /** The permission needed to see the entry; none means every signed-in user. */
  feature?: FeatureKey;
  scope?: Scope;
  /** Hidden for the super administrator (tenant-only pages). */
  tenantOnly?: boolean;
}

/**
 * Feature pages in the sidebar, below SPEC.md's fixed entries. Each feature adds its own line;
 * a page appears here only once it exists.
 */
export const featureNavItems: NavItem[] = [
  { label: messages.users.title, path: 'usermanagement', feature: 'users', scope: 'READ' },
  { label: messages.users.registerTitle, path: 'register', feature: 'users', scope: 'CREATE' },
  { label: messages.positions.title, path: 'positions', feature: 'positions', scope: 'READ' },
  { label: messages.activity.title, path: 'activity', feature: 'dashboard', scope: 'READ' },
  { label: 'Billing', path: 'billing', feature: 'subscriptions', scope: 'READ', tenantOnly: true },
];
