import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { messages, storageKeys, type SessionUser } from '@portal/shared';
import { ApiError } from '../lib/api-client';
import { AuthProvider } from '../features/auth/auth-context';
import { ProtectedLayout } from './guard';

const apiMock = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), delete: vi.fn() }));
vi.mock('../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../lib/api-client')>()),
  api: apiMock,
}));
vi.mock('./shell/dashboard-layout', () => ({ DashboardLayout: () => <p>dashboard shell</p> }));

const USER = {
  id: 'u1',
  username: 'asha',
  client: 'Acme',
  isSubscription: true,
  role: { name: 'admin', permissions: [] },
  twoFactor: { enabled: false, required: false },
} as unknown as SessionUser;

function renderSignedIn() {
  localStorage.setItem(storageKeys.userId, USER.id);
  const queryClient = new QueryClient();
  render(
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <MemoryRouter initialEntries={['/dashboard']}>
          <Routes>
            <Route path="/dashboard" element={<ProtectedLayout />} />
            <Route path="/auth/login" element={<p>sign-in page</p>} />
          </Routes>
        </MemoryRouter>
      </AuthProvider>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  vi.clearAllMocks();
  localStorage.clear();
});

describe('a stored session whose user cannot be read', () => {
  it('is kept when no answer came, and a retry that reaches the server signs back in', async () => {
    apiMock.get.mockRejectedValueOnce(new ApiError(null, messages.password.network));
    renderSignedIn();

    expect(await screen.findByText(messages.password.network)).toBeTruthy();
    expect(screen.queryByText('sign-in page')).toBeNull();
    expect(localStorage.getItem(storageKeys.userId)).toBe(USER.id);

    apiMock.get.mockResolvedValueOnce({ success: true, data: USER });
    await userEvent.setup().click(screen.getByRole('button', { name: messages.common.retry }));
    expect(await screen.findByText('dashboard shell')).toBeTruthy();
    expect(apiMock.get).toHaveBeenLastCalledWith('/auth/auth-session/me');
  });

  it('is kept on a server error, whose message is shown', async () => {
    apiMock.get.mockRejectedValueOnce(
      new ApiError(503, 'Service unavailable', { message: 'Service unavailable' }),
    );
    renderSignedIn();

    expect(await screen.findByText('Service unavailable')).toBeTruthy();
    expect(localStorage.getItem(storageKeys.userId)).toBe(USER.id);
  });

  it('ends when the server answers that the user is gone', async () => {
    apiMock.get.mockRejectedValueOnce(new ApiError(404, 'User not found'));
    renderSignedIn();

    expect(await screen.findByText('sign-in page')).toBeTruthy();
    expect(localStorage.getItem(storageKeys.userId)).toBeNull();
  });
});
