import { lazy, Suspense, useState, type ReactNode } from 'react';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClientProvider } from '@tanstack/react-query';
import { AuthProvider } from '../lib/session/auth-context';
import { createQueryClient } from '../lib/query-client';
import { theme } from './theme';

// Toasts load after the first screen (lib/snackbar.ts keeps any raised before then).
const Toaster = lazy(() => import('./toaster').then((m) => ({ default: m.Toaster })));

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>
        <AuthProvider>{children}</AuthProvider>
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
