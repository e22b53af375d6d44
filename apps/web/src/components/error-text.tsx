import { Box, Tooltip } from '@mui/material';

/**
 * An error a list shows (an SMTP reply, a bank's refusal), which may run to several hundred
 * characters: cut to `lines` lines with the whole of it in a tooltip. The text stays whole in the page
 * (the cut is CSS), for screen readers and in-page search.
 */
export function ErrorText({ text, lines = 2 }: { text: string; lines?: number }) {
  return (
    <Tooltip title={text} describeChild>
      <Box
        component="span"
        sx={{
          display: '-webkit-box',
          WebkitBoxOrient: 'vertical',
          WebkitLineClamp: lines,
          overflow: 'hidden',
          overflowWrap: 'anywhere',
        }}
      >
        {text}
      </Box>
    </Tooltip>
  );
}
