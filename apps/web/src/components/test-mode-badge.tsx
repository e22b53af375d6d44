import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Box } from '@mui/material';
import { alpha } from '@mui/material/styles';
import { visuallyHidden } from './visually-hidden';
import { portalConfigQuery } from '../lib/portal-config';

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
 * The marker is a button that shows its explanation under it, so a keyboard (Enter or Space) and a
 * touch (a tap) open it as a pointer does; Escape, a second press or a press elsewhere closes it.
 * The explanation is also the button's description, open or not. Not MUI's Tooltip or Popover: the
 * loading view is in the first script every visit loads, and they would bring Popper into it.
 */
export function TestModeBadge({ fullScreen = false }: { fullScreen?: boolean }) {
  const { data: config } = useQuery({ ...portalConfigQuery, enabled: !fullScreen });
  const explanationId = useId();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLSpanElement>(null);
  const note = useRef<HTMLSpanElement>(null);
  // How far the open explanation moves sideways to stay on screen (the marker may sit at either edge).
  const [shift, setShift] = useState(0);

  useLayoutEffect(() => {
    if (!open || !note.current) return setShift(0);
    const margin = 8;
    const box = note.current.getBoundingClientRect();
    const left = box.left - shift;
    const right = box.right - shift;
    const room = document.documentElement.clientWidth - margin;
    setShift(right > room ? Math.max(margin - left, room - right) : left < margin ? margin - left : 0);
    // Measured once per opening; `shift` itself is what is being worked out.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('pointerdown', closeOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);

  if (config?.paymentProvider !== 'sandbox') return null;
  return (
    <Box
      component="span"
      ref={root}
      sx={[
        { display: 'inline-flex', flexShrink: 0, position: 'relative' },
        fullScreen && { position: 'fixed', top: 12, right: 12, zIndex: 1 },
      ]}
    >
      <Box
        component="button"
        type="button"
        aria-expanded={open}
        aria-controls={explanationId}
        aria-describedby={explanationId}
        onClick={() => setOpen((was) => !was)}
        sx={{
          px: 1,
          py: 0.25,
          border: 1,
          borderColor: 'warning.main',
          borderRadius: 1,
          // Dark amber on a pale tint of itself: 6.3:1 on white, past WCAG 1.4.3's 4.5:1 for 12 px text.
          color: 'warning.dark',
          bgcolor: (t) => alpha(t.palette.warning.main, 0.08),
          fontFamily: 'inherit',
          cursor: 'pointer',
          m: 0,
          fontSize: '0.75rem',
          fontWeight: 700,
          lineHeight: 1.5,
          whiteSpace: 'nowrap',
          '&:focus-visible': { outline: '2px solid', outlineColor: 'warning.dark', outlineOffset: 2 },
        }}
      >
        {TEST_MODE_LABEL}
      </Box>
      <Box
        component="span"
        id={explanationId}
        ref={note}
        role="note"
        sx={
          open
            ? {
                position: 'absolute',
                top: 'calc(100% + 6px)',
                // In the corner of a full-screen view it opens leftwards, elsewhere rightwards.
                ...(fullScreen ? { right: 0 } : { left: 0 }),
                transform: `translateX(${shift}px)`,
                zIndex: (t) => t.zIndex.tooltip,
                width: 'max-content',
                maxWidth: 'min(280px, calc(100vw - 32px))',
                p: 1.25,
                borderRadius: 1,
                boxShadow: 3,
                bgcolor: 'background.paper',
                color: 'text.primary',
                border: 1,
                borderColor: 'divider',
                fontSize: '0.8125rem',
                fontWeight: 400,
                lineHeight: 1.45,
                whiteSpace: 'normal',
                textAlign: 'left',
              }
            : visuallyHidden
        }
      >
        {TEST_MODE_EXPLANATION}
      </Box>
    </Box>
  );
}
