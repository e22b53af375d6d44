import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@portal/shared';
import { AppProviders } from './providers';
import { routes } from './routes';

// The sign-in page's code does not arrive, as when the portal was updated under an open tab.
vi.mock('../features/auth/routes/login-page', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

const { location } = window;
afterEach(() => {
  Object.defineProperty(window, 'location', { configurable: true, value: location });
});

describe('a page whose code fails to load', () => {
  it('shows a message and a reload, not the router’s developer screen', async () => {
    const reload = vi.fn();
    Object.defineProperty(window, 'location', { configurable: true, value: { ...location, reload } });
    const router = createMemoryRouter(routes, { initialEntries: ['/auth/login'] });
    render(
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>,
    );

    expect((await screen.findByRole('alert')).textContent).toBe(messages.common.unexpectedRetry);
    expect(screen.queryByText(/Unexpected Application Error/)).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: messages.common.reload }));
    expect(reload).toHaveBeenCalledOnce();
  });
});
