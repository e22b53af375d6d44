import { useState } from 'react';
import { Alert, Box, Skeleton, Typography } from '@mui/material';
import { formatDateTime, type ActivityItem } from '@portal/shared';
import { ListPagination } from '../../../components/list-pagination';
import { extractErrorMessage } from '../../../lib/error-message';
import { useSubscriptionTimeline } from '../api/get-subscription-timeline';
import { labels } from '../labels';

function TimelineEntry({ item }: { item: ActivityItem }) {
  return (
    <Box
      component="li"
      sx={{
        display: 'grid',
        // Date beside the message where both fit, above it on a phone.
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: '11rem minmax(0, 1fr)' },
        columnGap: 2,
        py: 1,
        borderBottom: 1,
        borderColor: 'divider',
        '&:last-of-type': { borderBottom: 0 },
      }}
    >
      <Typography variant="body2" color="text.secondary" sx={{ pt: { sm: 0.25 } }}>
        <time dateTime={item.date}>{formatDateTime(item.date)}</time>
      </Typography>
      <Typography sx={{ overflowWrap: 'anywhere' }}>
        {item.message}
        {item.actorName && (
          <Typography component="span" variant="body2" color="text.secondary">
            {' '}
            · {item.actorName}
          </Typography>
        )}
      </Typography>
    </Box>
  );
}

/**
 * An organization's subscription timeline, newest first: notices sent, debits charged or declined
 * (with the next try), skips, plan changes, past due, suspension and payments, each with its date.
 * Billing's card shows the latest few; the operator's Renewals page pages through them (`paged`).
 */
export function SubscriptionTimeline({
  organizationId,
  pageSize,
  label,
  paged = false,
}: {
  organizationId: string;
  pageSize: number;
  /** The list's accessible name. */
  label: string;
  paged?: boolean;
}) {
  const [page, setPage] = useState(0);
  const timeline = useSubscriptionTimeline({ organizationId, page: page + 1, pageSize });

  if (timeline.isError) {
    return <Alert severity="error">{extractErrorMessage(timeline.error, labels.historyLoadFailed)}</Alert>;
  }
  if (timeline.isPending) return <Skeleton height={80} />;
  const { items, meta } = timeline.data;
  if (items.length === 0) return <Typography color="text.secondary">{labels.historyEmpty}</Typography>;
  return (
    <>
      <Box component="ol" aria-label={label} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {items.map((item) => (
          <TimelineEntry key={item.id} item={item} />
        ))}
      </Box>
      {paged && <ListPagination count={meta.total} page={page} pageSize={pageSize} onPageChange={setPage} />}
    </>
  );
}
