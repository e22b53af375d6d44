import { Outlet, useLocation, useMatches } from 'react-router';
import { Refusal } from '../components/refusal';
import { usePermissions } from '../lib/session/use-permission';
import { allows, type PageAccess } from '../lib/page-access';

/**
 * The page the address names, when the signed-in user may use it (its route's `handle.access`);
 * otherwise the server's own refusal, said before the page offers anything that would meet it.
 */
export function PermittedOutlet() {
  const matches = useMatches();
  const location = useLocation();
  const { holder } = usePermissions();
  const access = matches
    .map((match) => (match.handle as { access?: PageAccess } | undefined)?.access)
    .findLast((declared) => declared !== undefined);
  if (allows(access, holder, location)) return <Outlet />;
  return <Refusal />;
}
