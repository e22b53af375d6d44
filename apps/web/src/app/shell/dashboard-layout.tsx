import { Suspense, useState, type ReactNode } from 'react';
import { Box, Toolbar } from '@mui/material';
import { FullScreenLoading } from '../loading-layer';
import { PermittedOutlet } from '../route-guard';
import { Sidebar } from './sidebar';
import { TopBar } from './top-bar';

/** The shell: top bar, sidebar and the page; `topBarActions` are the top bar's controls from features. */
export function DashboardLayout({ topBarActions }: { topBarActions?: ReactNode }) {
  const [mobileOpen, setMobileOpen] = useState(false);
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <TopBar onToggleSidebar={() => setMobileOpen((o) => !o)} actions={topBarActions} />
      <Sidebar mobileOpen={mobileOpen} onClose={() => setMobileOpen(false)} />
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, p: { xs: 2, md: 3 } }}>
        <Toolbar />
        <Suspense fallback={<FullScreenLoading inShell />}>
          <PermittedOutlet />
        </Suspense>
      </Box>
    </Box>
  );
}
