import { useId } from 'react';
import { Box, Grid, Typography } from '@mui/material';
import { formatRupees, type Amounts } from '@portal/shared';
import { labels } from '../labels';

/**
 * The computed Amount, GST amount and Total, in rupees (formatting only here, at the edge): shown as
 * a summary of values, not as boxes to type in, each an <output> named by its label.
 */
export function AmountsFields({
  amounts,
}: {
  amounts: Pick<Amounts, 'totalAmountPaise' | 'taxAmountPaise' | 'grandTotalPaise'>;
}) {
  const id = useId();
  const rows: [string, number][] = [
    [labels.amount, amounts.totalAmountPaise],
    [labels.gstAmount, amounts.taxAmountPaise],
    [labels.total, amounts.grandTotalPaise],
  ];
  return (
    <Grid size={12}>
      <Box
        component="section"
        aria-labelledby={`${id}-title`}
        sx={{ bgcolor: 'action.hover', borderRadius: 1, px: 2, py: 1.5 }}
      >
        <Typography id={`${id}-title`} variant="subtitle2" component="h3">
          {labels.computedAmounts}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {labels.computedAmountsHint}
        </Typography>
        <Box
          component="dl"
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' },
            gap: { xs: 1, sm: 2 },
            m: 0,
            mt: 1.5,
          }}
        >
          {rows.map(([label, paise], i) => (
            <Box
              key={label}
              sx={{
                display: 'flex',
                flexDirection: { xs: 'row', sm: 'column' },
                justifyContent: 'space-between',
              }}
            >
              <Typography component="dt" variant="body2" color="text.secondary">
                <label htmlFor={`${id}-${i}`}>{label}</label>
              </Typography>
              <Typography component="dd" sx={{ m: 0, fontSize: '1.125rem' }}>
                {/* <output>: the result of a calculation, named by its label. Only the Total is read out
                    as it changes, not all three at every keystroke. */}
                <Box
                  component="output"
                  id={`${id}-${i}`}
                  aria-live={label === labels.total ? 'polite' : 'off'}
                  sx={{ fontWeight: label === labels.total ? 700 : 500 }}
                >
                  {formatRupees(paise)}
                </Box>
              </Typography>
            </Box>
          ))}
        </Box>
      </Box>
    </Grid>
  );
}
