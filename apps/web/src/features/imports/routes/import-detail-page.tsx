import { Box, Paper, Stack, Typography } from '@mui/material';
import { useParams } from 'react-router';
import { formatDateTime, type ImportKind } from '@portal/shared';
import { PageHeader } from '../../../components/page-header';
import { useRoutePrefix } from '../../../lib/use-route-prefix';
import { useImport } from '../api/get-import';
import { ImportReport } from '../components/import-report';
import { ImportStatusChip } from '../components/import-status-chip';
import { labels } from '../labels';
import { columnLabel } from '../utils/import-form';

/**
 * {prefix}/imports/:kind/:id: one import, at any time (from its notification, the history or the
 * commit): its dry run, its commit's progress while the job works, and its results.
 */
export function ImportDetailPage({ kind }: { kind: ImportKind }) {
  const { id = '' } = useParams();
  const prefix = useRoutePrefix();
  const detail = useImport(kind, id).data;
  return (
    <Box>
      <PageHeader
        title={detail?.fileName ?? labels.title(kind)}
        subtitle={detail && `${labels.title(kind)} · ${formatDateTime(detail.createdAt)}`}
        backTo={`${prefix}/imports/${kind}?tab=history`}
        backLabel={labels.backToHistory}
      />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        {detail && (
          <Stack
            direction="row"
            spacing={1}
            useFlexGap
            sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 3 }}
          >
            <ImportStatusChip status={detail.status} />
            <Typography variant="body2" color="text.secondary">
              {labels.settings(columnLabel(kind, detail.matchBy), detail.onExisting)}
            </Typography>
          </Stack>
        )}
        <ImportReport kind={kind} id={id} />
      </Paper>
    </Box>
  );
}
