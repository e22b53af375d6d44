import { useId, type ReactNode } from 'react';
import { Box, Paper, Stack, Typography } from '@mui/material';

/** One numbered step of the import, a section with its heading. */
export function StepSection({ step, title, children }: { step: number; title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 2 }}>
        <Box
          aria-hidden
          sx={{
            width: 28,
            height: 28,
            flexShrink: 0,
            borderRadius: '50%',
            display: 'grid',
            placeItems: 'center',
            typography: 'body2',
            fontWeight: 600,
            color: 'primary.contrastText',
            bgcolor: 'primary.main',
          }}
        >
          {step}
        </Box>
        <Typography id={headingId} variant="h6" component="h2">
          {title}
        </Typography>
      </Stack>
      {children}
    </Paper>
  );
}
