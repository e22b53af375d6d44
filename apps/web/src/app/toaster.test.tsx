import { act, render, screen, waitFor } from '@testing-library/react';
import { ThemeProvider } from '@mui/material';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOAST_AUTO_HIDE_MS, TOAST_MAX_VISIBLE } from '@portal/shared';
import { closeSnackbar, enqueueSnackbar } from '../lib/snackbar';
import { theme } from './theme';
import { Toaster, TOASTS_AT_BOTTOM, TOASTS_BELOW_TOP_BAR } from './toaster';

describe('toasts (lib/snackbar.ts and the lazily loaded Toaster)', () => {
  it('keeps a toast raised before the Toaster exists and shows it once it mounts', async () => {
    // No SnackbarProvider has been created in this file yet: the toast waits.
    expect(enqueueSnackbar('Saved before the toaster loaded', { variant: 'success' })).toBeNull();
    closeSnackbar(null); // a waiting toast has no key; this must not close everything
    render(
      <ThemeProvider theme={theme}>
        <Toaster />
      </ThemeProvider>,
    );
    expect(await screen.findByText('Saved before the toaster loaded')).toBeTruthy();

    let key: ReturnType<typeof enqueueSnackbar> = null;
    act(() => {
      key = enqueueSnackbar('Raised afterwards', { variant: 'error' });
    });
    expect(key).not.toBeNull();
    expect(await screen.findByText('Raised afterwards')).toBeTruthy();
    act(() => closeSnackbar(key));
    await waitFor(() => expect(screen.queryByText('Raised afterwards')).toBeNull());
    expect(screen.getByText('Saved before the toaster loaded')).toBeTruthy();
  });
});

function renderToaster() {
  render(
    <ThemeProvider theme={theme}>
      <Toaster />
    </ThemeProvider>,
  );
}

const containerOf = (text: string) => screen.getByText(text).closest('.notistack-SnackbarContainer')!;

describe('where toasts appear (top-right, at most 3, auto-hide)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows at most 3 at the top right, under the top bar so the bell and the user menu stay clear, each hiding after 4 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderToaster();
    act(() => {
      for (let i = 1; i <= 5; i++) enqueueSnackbar(`Saved ${i}`, { variant: 'success' });
    });
    expect(await screen.findByText('Saved 1')).toBeTruthy();
    expect(screen.getAllByText(/^Saved \d$/)).toHaveLength(TOAST_MAX_VISIBLE);
    const container = containerOf('Saved 1');
    expect(container.classList.contains(TOASTS_BELOW_TOP_BAR)).toBe(true);
    // The top bar is 64 px high: the toasts start below it, not at notistack's 14 px.
    expect(getComputedStyle(container).top).toBe('72px');

    await act(async () => {
      await vi.advanceTimersByTimeAsync(TOAST_AUTO_HIDE_MS * 2 + 1_000);
    });
    await waitFor(() => expect(screen.queryByText('Saved 1')).toBeNull());
    // The two that waited show once room is made.
    expect(await screen.findByText('Saved 5')).toBeTruthy();
  });

  it('rises from the bottom on a phone, where a toast spans the width and would cover the page title', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }));
    renderToaster();
    act(() => {
      enqueueSnackbar('Saved on a phone', { variant: 'success' });
    });
    expect(await screen.findByText('Saved on a phone')).toBeTruthy();
    const container = containerOf('Saved on a phone');
    expect(container.classList.contains(TOASTS_AT_BOTTOM)).toBe(true);
    expect(container.classList.contains(TOASTS_BELOW_TOP_BAR)).toBe(false);
  });
});
