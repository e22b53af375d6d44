import type { ReactNode } from 'react';
import { Box, Drawer, IconButton, Stack, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';

export interface SidePanelProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** The panel's actions, in a footer that stays in view while the content scrolls. */
  footer?: ReactNode;
}

export function SidePanel({ open, title, onClose, children, footer }: SidePanelProps) {
  return (
    // Above the app bar (which sits at drawer + 1), like any modal.
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      sx={{ zIndex: (t) => t.zIndex.modal }}
      slotProps={{ paper: { sx: { width: { xs: '100%', sm: 420 } }, role: 'dialog', 'aria-label': title } }}
    >
      <Stack
        direction="row"
        sx={{
          px: 3,
          py: 2,
          borderBottom: 1,
          borderColor: 'divider',
          alignItems: 'center',
          justifyContent: 'space-between',
        }}
      >
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        <IconButton aria-label="Close" onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Stack>
      <Box sx={{ p: 3, flex: 1, minHeight: 0, overflowY: 'auto' }}>{children}</Box>
      {footer && (
        <Stack spacing={1.5} sx={{ px: 3, py: 2, borderTop: 1, borderColor: 'divider' }}>
          {footer}
        </Stack>
      )}
    </Drawer>
  );
}
