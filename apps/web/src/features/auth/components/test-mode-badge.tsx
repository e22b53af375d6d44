import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Box } from '@mui/material';
import { alpha } from '@mui/material/styles';
import { visuallyHidden } from '../../../components/visually-hidden';
import { portalConfigQuery } from '../api/get-config';

export const TEST_MODE_LABEL = 'Test mode';
export const TEST_MODE_EXPLANATION = 'Payments go through the built-in sandbox; no real money is charged.';

/**
 * Issue 20: while payments go through the sandbox, every screen says so. Shown only once the
 * config is known, so a production portal never flashes it.
 *
 * `fullScreen` is for the loading, not-found and error views: the marker sits in the top right
 * corner, where those views have nothing, and shows only a config an earlier screen has read. They
 * start no request of their own: a request may be what is failing.
 *
 * The explanation is a native `title` and a described-by text rather than MUI's Tooltip: the loading
 * view is in the first script every visit loads, and a Tooltip would bring Popper into it.
 */
export function TestModeBadge({ fullScreen = false }: { fullScreen?: boolean }) {
  const { data: config } = useQuery({ ...portalConfigQuery, enabled: !fullScreen });
  const explanationId = useId();
  if (config?.paymentProvider !== 'sandbox') return null;
  return (
    <Box
      component="span"
      sx={[
        { display: 'inline-flex', flexShrink: 0 },
        fullScreen && { position: 'fixed', top: 12, right: 12 },
      ]}
    >
      <Box
        component="span"
        title={TEST_MODE_EXPLANATION}
        aria-describedby={explanationId}
        sx={{
          px: 1,
          py: 0.25,
          border: 1,
          borderColor: 'warning.main',
          borderRadius: 1,
          // Dark amber on a pale tint of itself: 6.3:1 on white, past WCAG 1.4.3's 4.5:1 for 12 px text.
          color: 'warning.dark',
          bgcolor: (t) => alpha(t.palette.warning.main, 0.08),
          fontSize: '0.75rem',
          fontWeight: 700,
          lineHeight: 1.5,
          whiteSpace: 'nowrap',
        }}
      >
        {TEST_MODE_LABEL}
      </Box>
      <Box component="span" id={explanationId} sx={visuallyHidden}>
        {TEST_MODE_EXPLANATION}
      </Box>
    </Box>
  );
}
