import { createTheme } from '@mui/material/styles';

/** SPEC.md §3 palette names: primary, text, background, border, success, error, disabled. */
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
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiPaper: {
      defaultProps: { elevation: 0 },
      styleOverrides: { root: { border: `1px solid ${palette.border}` } },
    },
    MuiAppBar: { styleOverrides: { root: { border: 'none' } } },
  },
});
