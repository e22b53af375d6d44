import { createTheme } from '@mui/material/styles';

/** The palette's names: primary, text, background, border, success, error, disabled. */
export const palette = {
  primary: '#1f4fd1',
  text: '#1b2430',
  background: '#f5f7fb',
  border: '#dfe3ea',
  success: '#1e7d3a',
  error: '#c62828',
  disabled: '#6b7280',
} as const;

export const theme = createTheme({
  palette: {
    primary: { main: palette.primary },
    success: { main: palette.success },
    error: { main: palette.error },
    // MUI's default info (#0288d1) and warning (#ed6c02) give 3.9:1 and 3.1:1 as text on white
    // (outlined chips, links); these keep the hues at 6.3:1 and 5.0:1 (WCAG 1.4.3).
    info: { main: '#0b62a8' },
    warning: { main: '#b45309' },
    text: { primary: palette.text, secondary: '#4b5563', disabled: palette.disabled },
    background: { default: palette.background, paper: '#ffffff' },
    divider: palette.border,
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    button: { textTransform: 'none' },
  },
  components: {
    MuiButton: {
      defaultProps: { disableElevation: true },
      // size="large" marks a button that commits money or creates an account: a touch target of at least
      // 44 px (WCAG 2.5.5), so a thumb on a phone lands on the one it meant (issue 21).
      styleOverrides: { root: { variants: [{ props: { size: 'large' }, style: { minHeight: 44 } }] } },
    },
    MuiPaper: {
      defaultProps: { elevation: 0 },
      styleOverrides: { root: { border: `1px solid ${palette.border}` } },
    },
    MuiAppBar: { styleOverrides: { root: { border: 'none' } } },
    // The default letter avatar (#f5f7fb on #bdbdbd, 1.8:1) is unreadable; white on primary is 6.8:1.
    MuiAvatar: { styleOverrides: { colorDefault: { color: '#ffffff', backgroundColor: palette.primary } } },
  },
});
