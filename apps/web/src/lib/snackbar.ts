import {
  closeSnackbar as closeWithProvider,
  enqueueSnackbar as enqueueWithProvider,
  type OptionsObject,
  type SnackbarKey,
  type SnackbarMessage,
} from 'notistack';

/**
 * Toasts for pages and components: notistack's `enqueueSnackbar` and `closeSnackbar`, which exist
 * only once a SnackbarProvider has been created. The app's provider (app/toaster.tsx) loads after the
 * first screen, so a toast raised before then waits here and shows when it mounts.
 */
const early: [SnackbarMessage, OptionsObject | undefined][] = [];

export function enqueueSnackbar(message: SnackbarMessage, options?: OptionsObject): SnackbarKey | null {
  // The import is a live binding: undefined until a provider exists.
  if (typeof enqueueWithProvider !== 'function') {
    early.push([message, options]);
    return null;
  }
  return enqueueWithProvider(message, options);
}

/** Closes one toast (no key: all of them). A toast still waiting (null key) shows and hides on its own. */
export function closeSnackbar(key?: SnackbarKey | null): void {
  if (key !== null && typeof closeWithProvider === 'function') closeWithProvider(key);
}

/** Shows the toasts raised before the provider existed (called by the Toaster once mounted). */
export function showEarlySnackbars(): void {
  for (const [message, options] of early.splice(0)) enqueueWithProvider(message, options);
}
