import { act, render, screen, waitFor } from '@testing-library/react';
import { ThemeProvider } from '@mui/material';
import { describe, expect, it } from 'vitest';
import { closeSnackbar, enqueueSnackbar } from '../lib/snackbar';
import { theme } from './theme';
import { Toaster } from './toaster';

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
