import {
  createContext,
  lazy,
  Suspense,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { Box, CircularProgress, LinearProgress, Stack, Typography } from '@mui/material';
import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { LOADER_NOT_FOUND_MS, messages, PROGRESS_BAR_HEIGHT_PX, PROGRESS_BAR_OPACITY } from '@portal/shared';
import { TestModeBadge } from '../components/test-mode-badge';

const NotFoundView = lazy(() => import('./not-found-view').then((m) => ({ default: m.NotFoundView })));

interface LoadingLayer {
  contentLoading: boolean;
  progressBar: boolean;
  loaderTimeout: boolean;
  setContentLoading(on: boolean): void;
  setProgressBar(on: boolean): void;
  setLoaderTimeout(on: boolean): void;
}

const LoadingLayerContext = createContext<LoadingLayer | null>(null);

/** Three independent flags, all false at start, set by the pages that use them. */
export function LoadingLayerProvider({ children }: { children: ReactNode }) {
  const [contentLoading, setContentLoading] = useState(false);
  const [progressBar, setProgressBar] = useState(false);
  const [loaderTimeout, setLoaderTimeout] = useState(false);
  const value = useMemo(
    () => ({
      contentLoading,
      progressBar,
      loaderTimeout,
      setContentLoading,
      setProgressBar,
      setLoaderTimeout,
    }),
    [contentLoading, progressBar, loaderTimeout],
  );
  return (
    <LoadingLayerContext.Provider value={value}>
      {children}
      <TopProgressBar />
      {loaderTimeout && <LoaderTimeoutView />}
    </LoadingLayerContext.Provider>
  );
}

export function useLoadingLayer(): LoadingLayer {
  const value = useContext(LoadingLayerContext);
  if (!value) throw new Error('useLoadingLayer must be used inside LoadingLayerProvider');
  return value;
}

/** 3 px, half opacity, fixed across the top while the flag is on or a request is running. */
function TopProgressBar() {
  const { progressBar } = useLoadingLayer();
  const busy = useIsFetching() + useIsMutating() > 0;
  if (!progressBar && !busy) return null;
  return (
    <LinearProgress
      aria-label="Loading"
      sx={{
        position: 'fixed',
        top: 0,
        left: 0,
        right: 0,
        height: PROGRESS_BAR_HEIGHT_PX,
        opacity: PROGRESS_BAR_OPACITY,
        zIndex: (t) => t.zIndex.tooltip + 1,
      }}
    />
  );
}

/** `inShell`: inside the dashboard, whose top bar already carries the test-mode marker. */
export function FullScreenLoading({ inShell = false }: { inShell?: boolean }) {
  return (
    <>
      {!inShell && <TestModeBadge fullScreen />}
      <Stack
        role="status"
        spacing={2}
        sx={{ minHeight: '100vh', alignItems: 'center', justifyContent: 'center' }}
      >
        <CircularProgress aria-hidden />
        <Typography>{messages.common.loading}</Typography>
      </Stack>
    </>
  );
}

/** The loading view, which turns into the not-found message after 30 s. */
function LoaderTimeoutView() {
  const [expired, setExpired] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setExpired(true), LOADER_NOT_FOUND_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <Box
      sx={{ position: 'fixed', inset: 0, bgcolor: 'background.default', zIndex: (t) => t.zIndex.modal + 1 }}
    >
      {expired ? (
        <Suspense fallback={<FullScreenLoading />}>
          <NotFoundView />
        </Suspense>
      ) : (
        <FullScreenLoading />
      )}
    </Box>
  );
}
