import { styled } from '@mui/material/styles';
import { MaterialDesignContent, SnackbarProvider } from 'notistack';
import { useEffect } from 'react';
import { TOAST_AUTO_HIDE_MS, TOAST_MAX_VISIBLE } from '@portal/shared';
import { showEarlySnackbars } from '../lib/snackbar';

/**
 * notistack's own toast colours (#43a047, #ff9800, #2196f3 under white text) fall below the 4.5:1
 * contrast of WCAG 1.4.3; the theme's colours meet it. The styling route is notistack's documented one.
 */
const Toast = styled(MaterialDesignContent)(({ theme }) => ({
  '&.notistack-MuiContent-success': { backgroundColor: theme.palette.success.main },
  '&.notistack-MuiContent-error': { backgroundColor: theme.palette.error.main },
  '&.notistack-MuiContent-warning': { backgroundColor: theme.palette.warning.main },
  '&.notistack-MuiContent-info': { backgroundColor: theme.palette.info.main },
}));
const toastComponents = { default: Toast, success: Toast, error: Toast, warning: Toast, info: Toast };

/**
 * Where toasts appear. Pages raise them through lib/snackbar.ts, which needs no context, so this can
 * load after the first screen (AppProviders) and keep notistack out of the initial script.
 */
export function Toaster() {
  useEffect(showEarlySnackbars, []);
  return (
    <SnackbarProvider
      maxSnack={TOAST_MAX_VISIBLE}
      autoHideDuration={TOAST_AUTO_HIDE_MS * 2}
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      Components={toastComponents}
    />
  );
}
