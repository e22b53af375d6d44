import { Grid, TextField } from '@mui/material';
import { formatRupees, type Amounts } from '@portal/shared';
import { labels } from '../labels';

/** The read-only Amount, GST amount and Total, in rupees (formatting only here, at the edge). */
export function AmountsFields({
  amounts,
}: {
  amounts: Pick<Amounts, 'totalAmountPaise' | 'taxAmountPaise' | 'grandTotalPaise'>;
}) {
  const fields: [string, number][] = [
    [labels.amount, amounts.totalAmountPaise],
    [labels.gstAmount, amounts.taxAmountPaise],
    [labels.total, amounts.grandTotalPaise],
  ];
  return (
    <>
      {fields.map(([label, paise]) => (
        <Grid key={label} size={{ xs: 12, sm: 4 }}>
          <TextField
            label={label}
            value={formatRupees(paise)}
            fullWidth
            slotProps={{ input: { readOnly: true } }}
          />
        </Grid>
      ))}
    </>
  );
}
