import { useEffect, useState } from 'react';
import { Box, IconButton, Tooltip } from '@mui/material';
import CopyIcon from '@mui/icons-material/ContentCopyOutlined';
import { visuallyHidden } from './visually-hidden';

export const shortIdLabels = { copy: 'Copy ID', copied: 'Copied' } as const;

/** How long the copy button says it copied. */
const COPIED_MS = 1500;

/** The default look of an id: '#' in front (the '#Id' column of Admin Users). */
export const hashId = (id: string) => `#${id}`;
/** An id that shows as it is (a ticket's TICKET-…, a payment reference). */
export const plainId = (id: string) => id;

/** `text` cut to `keep` characters plus an ellipsis; as it is when cutting would not shorten it. */
export function shortenId(text: string, keep: number): string {
  return text.length > keep + 1 ? `${text.slice(0, keep)}…` : text;
}

export interface ShortIdProps {
  /** The whole id as stored: what the list's search matches and what the copy button copies. */
  id: string;
  /** The whole id as it reads on screen (role ids: formatRoleId). */
  format?: (id: string) => string;
  /**
   * Characters of the formatted id that show; a longer one ends in '…'. '#' and 8 hex digits by default;
   * Infinity where the id shows whole and only the copy button is wanted.
   */
  keep?: number;
}

/**
 * A long id shown short (a 36-character UUID wraps to a dozen lines in a narrow column) with the
 * whole of it at hand: in a tooltip, for screen readers and in-page search as hidden text, and through
 * a copy button. An id that is short already shows whole.
 */
export function ShortId({ id, format = hashId, keep = 9 }: ShortIdProps) {
  const [copied, setCopied] = useState(false);
  const whole = format(id);
  const shown = shortenId(whole, keep);
  const cut = shown !== whole;

  useEffect(() => {
    if (!copied) return undefined;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(id);
      setCopied(true);
    } catch {
      // No clipboard (an insecure page, a refused permission): the tooltip and the text still have it.
    }
  };

  return (
    <Box
      component="span"
      sx={{
        position: 'relative',
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.25,
        fontFamily: 'monospace',
      }}
    >
      {cut ? (
        <>
          <Tooltip title={whole} describeChild>
            <span aria-hidden="true" data-testid="short-id">
              {shown}
            </span>
          </Tooltip>
          <Box component="span" sx={visuallyHidden}>
            {whole}
          </Box>
        </>
      ) : (
        <span>{whole}</span>
      )}
      <Tooltip title={copied ? shortIdLabels.copied : shortIdLabels.copy}>
        <IconButton
          size="small"
          aria-label={`${copied ? shortIdLabels.copied : shortIdLabels.copy} ${whole}`}
          onClick={() => void copy()}
          sx={{ p: 0.5 }}
        >
          <CopyIcon sx={{ fontSize: 16 }} />
        </IconButton>
      </Tooltip>
    </Box>
  );
}
