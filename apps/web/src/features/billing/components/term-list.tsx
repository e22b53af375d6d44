import { Box, Typography } from '@mui/material';

/**
 * Terms and their values, label beside value (above it on a phone, where both would not fit side by
 * side): the plan card's terms and the Change plan dialog's figures. `dense` is the dialog's.
 */
export function TermList({
  rows,
  dense = false,
}: {
  rows: readonly (readonly [string, string])[];
  dense?: boolean;
}) {
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'max-content minmax(0, 1fr)' },
        columnGap: dense ? 2 : 3,
        rowGap: { xs: 0, sm: dense ? 0.5 : 0.75 },
        m: 0,
        mb: dense ? 2 : 0,
      }}
    >
      {rows.map(([term, value]) => (
        <Box key={term} sx={{ display: 'contents' }}>
          <Typography component="dt" variant={dense ? 'body2' : 'body1'} color="text.secondary">
            {term}
          </Typography>
          <Typography
            component="dd"
            sx={{ m: 0, mb: { xs: 1, sm: 0 }, fontWeight: 500, overflowWrap: 'anywhere' }}
          >
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
