import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messages, type SessionUser } from '@portal/shared';
import { PAGE_ACCESS } from '../lib/page-access';
import { renderAt } from '../test/render-at';
import { aUser, permission } from '../test/users';
import { PermittedOutlet } from './route-guard';

/** The guard over a home page, which declares nothing, and the roles page, signed in as `user`. */
function renderPage(path: string, user: SessionUser = aUser()) {
  return renderAt(path, {
    element: <PermittedOutlet />,
    route: '/dashboard',
    children: [
      { index: true, element: <h1>Home</h1> },
      { path: 'userroles', handle: { access: PAGE_ACCESS.userroles }, element: <h1>Roles</h1> },
    ],
    user,
  });
}

describe('the route guard', () => {
  it('says "You do not have permission to do this." for a page the user may not use, with a way back', async () => {
    await renderPage('/dashboard/userroles');
    expect(screen.getByRole('heading', { level: 1, name: messages.http.forbidden })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Roles' })).toBeNull();
    expect(screen.getByRole('link', { name: messages.common.backToDashboard }).getAttribute('href')).toBe(
      '/dashboard',
    );
  });

  it('shows the page to a user who holds what it declares, and pages that declare nothing to all', async () => {
    await renderPage('/dashboard/userroles', aUser({ permissions: [permission('roles', ['READ'])] }));
    expect(screen.getByRole('heading', { name: 'Roles' })).toBeTruthy();
  });

  it('shows a page that declares nothing to everyone', async () => {
    await renderPage('/dashboard');
    expect(screen.getByRole('heading', { name: 'Home' })).toBeTruthy();
  });
});
