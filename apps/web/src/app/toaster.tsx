import { GlobalStyles, useMediaQuery } from '@mui/material';
import { styled, type Theme } from '@mui/material/styles';
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

/** Class names of the two places toasts go (notistack's `classes`), for the rules below and tests. */
export const TOASTS_BELOW_TOP_BAR = 'portal-toasts-below-top-bar';
export const TOASTS_AT_BOTTOM = 'portal-toasts-at-bottom';
/** The top bar is MUI's Toolbar, 64 px high from `sm` up; toasts start 8 px under it. */
const BELOW_TOP_BAR_PX = 64 + 8;

/**
 * Where toasts appear. Pages raise them through lib/snackbar.ts, which needs no context, so this can
 * load after the first screen (AppProviders) and keep notistack out of the initial script.
 *
 * Top right, but under the top bar: at notistack's own offset a toast covered the bell and the user
 * menu for its 4 s after every action. On a phone a toast spans the width, so at the top it would
 * cover the page's title and first controls: there it rises from the bottom. At most 3 show at once
 * and each hides by itself (docs/product.md, "Where toasts appear").
 */
export function Toaster() {
  useEffect(showEarlySnackbars, []);
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  return (
    <>
      {/* Twice the class: notistack's own offset has the same specificity and may come later. */}
      <GlobalStyles
        styles={{
          [`.${TOASTS_BELOW_TOP_BAR}.${TOASTS_BELOW_TOP_BAR}`]: { top: BELOW_TOP_BAR_PX },
        }}
      />
      <SnackbarProvider
        maxSnack={TOAST_MAX_VISIBLE}
        autoHideDuration={TOAST_AUTO_HIDE_MS * 2}
        anchorOrigin={
          phone ? { vertical: 'bottom', horizontal: 'center' } : { vertical: 'top', horizontal: 'right' }
        }
        classes={{
          containerAnchorOriginTopRight: TOASTS_BELOW_TOP_BAR,
          containerAnchorOriginBottomCenter: TOASTS_AT_BOTTOM,
        }}
        Components={toastComponents}
      />
    </>
  );
}
