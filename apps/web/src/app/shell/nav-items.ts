import { messages } from '@portal/shared';

export interface NavItem {
  label: string;
  /** Path below the current prefix ({prefix}/{path}); shown only to users its route allows. */
  path: string;
}

/**
 * Feature pages in the sidebar, below its fixed entries (sidebar.tsx). Each feature adds its own line;
 * who sees an entry is what its route declares (app/routes.tsx).
 */
export const featureNavItems: NavItem[] = [
  { label: messages.users.title, path: 'usermanagement' },
  { label: messages.users.registerTitle, path: 'register' },
  { label: messages.positions.title, path: 'positions' },
  { label: messages.activity.title, path: 'activity' },
  { label: 'Billing', path: 'billing' },
  { label: messages.invoices.title, path: 'invoices' },
  { label: messages.mail.title, path: 'mail' },
  { label: 'Renewals', path: 'renewals' },
];
