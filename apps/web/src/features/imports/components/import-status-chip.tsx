import { Chip, type ChipProps } from '@mui/material';
import type { ImportStatus } from '@portal/shared';
import { labels } from '../labels';

const COLORS: Record<ImportStatus, ChipProps['color']> = {
  dry_run: 'default',
  queued: 'info',
  running: 'info',
  done: 'success',
  failed: 'error',
};

/** An import's status, in words and colour. */
export function ImportStatusChip({ status }: { status: ImportStatus }) {
  return <Chip size="small" label={labels.statuses[status]} color={COLORS[status]} />;
}
