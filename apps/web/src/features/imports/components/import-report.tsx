import { useEffect } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  LinearProgress,
  Stack,
  Typography,
  type ChipProps,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { formatDateTime, messages, type ImportDetail, type ImportKind } from '@portal/shared';
import { extractErrorMessage } from '../../../lib/error-message';
import { usePermissions } from '../../../lib/session/use-permission';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { useRoutePrefix } from '../../../lib/use-route-prefix';
import { useCommitImport } from '../api/commit-import';
import { useImport } from '../api/get-import';
import { labels } from '../labels';
import { isWorking, RECORDS_PAGE, RECORDS_QUERY_KEYS } from '../utils/import-kind';
import { ImportErrors } from './import-errors';

function Counts({ title, chips }: { title: string; chips: [string, ChipProps['color'], number][] }) {
  return (
    <Box>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      <Stack component="ul" direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', m: 0, p: 0 }}>
        {chips.map(([label, color, count]) => (
          <Box component="li" key={label} sx={{ listStyle: 'none' }}>
            <Chip
              label={label}
              color={count > 0 ? color : 'default'}
              variant={count > 0 ? 'filled' : 'outlined'}
            />
          </Box>
        ))}
      </Stack>
    </Box>
  );
}

/**
 * One import as it stands: the dry run's summary and errors, the commit ("Import N records"), the
 * commit's progress while its job works (the query asks again meanwhile), then its results.
 */
export function ImportReport({
  kind,
  id,
  onCommitted,
}: {
  kind: ImportKind;
  id: string;
  /** Called once the commit has started (the new import's page goes to the import's own). */
  onCommitted?: () => void;
}) {
  const query = useImport(kind, id);
  const commit = useCommitImport();
  const queryClient = useQueryClient();
  const prefix = useRoutePrefix();
  const { mayOpen } = usePermissions();
  const status = query.data?.status;

  // Once an import has ended, the lists of its records are read afresh.
  useEffect(() => {
    if (status === 'done' || status === 'failed')
      for (const queryKey of RECORDS_QUERY_KEYS[kind]) void queryClient.invalidateQueries({ queryKey });
  }, [status, kind, queryClient]);

  if (query.isPending) return <CircularProgress size={24} aria-label={messages.common.loading} />;
  if (query.isError)
    return <Alert severity="error">{extractErrorMessage(query.error, labels.loadFailed)}</Alert>;
  const detail: ImportDetail = query.data;
  const { counts, progress, results } = detail;
  const toImport = counts.toCreate + counts.toUpdate;

  const start = async () => {
    try {
      const { message } = await commit.mutateAsync({ kind, id });
      enqueueSnackbar(message ?? messages.imports.committed, { variant: 'success' });
      onCommitted?.();
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, labels.commitFailed), { variant: 'error' });
    }
  };

  return (
    <Stack spacing={3}>
      <Stack spacing={1}>
        <Counts
          title={labels.summary}
          chips={[
            [labels.toCreate(counts.toCreate), 'success', counts.toCreate],
            [labels.toUpdate(counts.toUpdate), 'info', counts.toUpdate],
            [labels.unchanged(counts.unchanged), 'default', counts.unchanged],
            [labels.withErrors(counts.errors), 'error', counts.errors],
          ]}
        />
        <Typography variant="body2" color="text.secondary">
          {labels.rowsChecked(counts.total)}
        </Typography>
      </Stack>

      {counts.errors === 0 && detail.errors.length === 0 ? (
        <Alert severity="success">{labels.noErrors}</Alert>
      ) : (
        <ImportErrors detail={detail} />
      )}

      {detail.status === 'dry_run' && (
        <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
          <Button
            variant="contained"
            size="large"
            disabled={toImport === 0 || commit.isPending}
            onClick={start}
          >
            {labels.importRecords(toImport)}
          </Button>
          {toImport === 0 && (
            <Typography variant="body2" color="text.secondary">
              {labels.nothingToImport}
            </Typography>
          )}
        </Stack>
      )}

      {isWorking(detail.status) && (
        <Stack spacing={1}>
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
            {labels.progress}
          </Typography>
          {detail.status === 'queued' || progress.total === 0 ? (
            <LinearProgress aria-label={labels.progress} />
          ) : (
            <LinearProgress
              aria-label={labels.progress}
              variant="determinate"
              value={Math.min(100, Math.round((progress.done / progress.total) * 100))}
            />
          )}
          <Typography variant="body2" role="status">
            {detail.status === 'queued' ? labels.queued : labels.progressText(progress.done, progress.total)}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {labels.leaveHint}
          </Typography>
        </Stack>
      )}

      {(detail.status === 'done' || detail.status === 'failed') && (
        <Stack spacing={1.5}>
          <Counts
            title={labels.results}
            chips={[
              [labels.created(results.created), 'success', results.created],
              [labels.updated(results.updated), 'info', results.updated],
              [labels.unchanged(results.unchanged), 'default', results.unchanged],
              [labels.failed(results.failed), 'error', results.failed],
            ]}
          />
          {detail.failure && <Alert severity="error">{detail.failure}</Alert>}
          {detail.finishedAt && (
            <Typography variant="body2" color="text.secondary">
              {labels.finishedAt(formatDateTime(detail.finishedAt))}
            </Typography>
          )}
          {mayOpen(RECORDS_PAGE[kind]) && (
            <Box>
              <Button variant="contained" component={RouterLink} to={`${prefix}/${RECORDS_PAGE[kind]}`}>
                {labels.recordsList(kind)}
              </Button>
            </Box>
          )}
        </Stack>
      )}
    </Stack>
  );
}
