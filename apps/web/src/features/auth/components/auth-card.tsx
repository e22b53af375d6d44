import type { ReactNode } from 'react';
import { Box, Paper, Stack, Typography } from '@mui/material';
import { TestModeBadge } from '../../../components/test-mode-badge';

/** The frame of the sign-in, forgot-password and reset screens. */
export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
}) {
  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2, bgcolor: 'background.default' }}
    >
      <Paper sx={{ width: '100%', maxWidth: 420, p: { xs: 3, sm: 4 } }}>
        <Stack
          direction="row"
          sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}
        >
          <Typography variant="overline" sx={{ color: 'primary.main', fontWeight: 700 }}>
            Interview Credits Portal
          </Typography>
          <TestModeBadge />
        </Stack>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600, mb: subtitle ? 0.5 : 3 }}>
          {title}
        </Typography>
        {subtitle && (
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {subtitle}
          </Typography>
        )}
        {children}
      </Paper>
    </Box>
  );
}
