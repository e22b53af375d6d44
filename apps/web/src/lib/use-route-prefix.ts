import { useLocation } from 'react-router';

export type RoutePrefix = '/dashboard' | '/logindashboard';

/** /logindashboard is used instead of /dashboard when the path does not contain /dashboard. */
export function routePrefixOf(pathname: string): RoutePrefix {
  return pathname.includes('/dashboard') ? '/dashboard' : '/logindashboard';
}

export function useRoutePrefix(): RoutePrefix {
  return routePrefixOf(useLocation().pathname);
}
