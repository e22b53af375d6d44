import type { ReactNode } from 'react';
import { Box, Paper, Typography } from '@mui/material';

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
        <Typography variant="overline" sx={{ color: 'primary.main', fontWeight: 700 }}>
          Interview Credits Portal
        </Typography>
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
