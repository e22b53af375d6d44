import { Chip, type ChipProps } from '@mui/material';
import type { RenewalStatus } from '@portal/shared';
import { renewalStatusLabels } from '../labels';

const COLORS: Record<RenewalStatus, ChipProps['color']> = {
  scheduled: 'default',
  notified: 'info',
  skipped: 'default',
  awaiting_authentication: 'warning',
  awaiting_payment: 'warning',
  charging: 'info',
  charged: 'success',
  paid: 'success',
  failed: 'error',
  lapsed: 'default',
};

/** A renewal's status, in words and colour. */
export function RenewalStatusChip({ status }: { status: RenewalStatus }) {
  return <Chip size="small" label={renewalStatusLabels[status]} color={COLORS[status]} />;
}
