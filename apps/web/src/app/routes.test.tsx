import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@portal/shared';
import { AppProviders } from './providers';
import { routes } from './routes';

// The sign-in page's code arrives only when the test lets it, as over a slow connection.
const arrival = vi.hoisted(() => {
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  return { arrived, arrive: () => arrive() };
});
vi.mock('../features/auth/routes/login-page', async () => {
  await arrival.arrived;
  return { LoginPage: () => <h1>Sign-in page</h1> };
});

afterEach(() => vi.restoreAllMocks());

describe('the first page of a visit', () => {
  it('shows the full-screen loading view while its code loads, then the page', async () => {
    const warn = vi.spyOn(console, 'warn');
    const router = createMemoryRouter(routes, { initialEntries: ['/auth/login'] });
    render(
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>,
    );

    expect(screen.getByRole('status').textContent).toBe(messages.common.loading);
    arrival.arrive();
    expect(await screen.findByRole('heading', { name: 'Sign-in page' })).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
    // React Router warns when the first render has nothing to show (no HydrateFallback).
    expect(warn.mock.calls.flat().join(' ')).not.toMatch(/HydrateFallback/);
  });
});
