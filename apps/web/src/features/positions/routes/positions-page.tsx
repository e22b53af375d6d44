import { useState } from 'react';
import { Box, Button, Chip, FormControl, InputLabel, MenuItem, Paper, Select } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { enqueueSnackbar } from '../../../lib/snackbar';
import {
  ADMIN_USER_PAGE_SIZES,
  formatCount,
  formatDate,
  messages,
  POSITION_STATUSES,
  type Position,
  type PositionForm,
  type PositionStatus,
} from '@portal/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ImportButton } from '../../../components/import-button';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { ListToolbar, SearchField } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api-client';
import { extractErrorMessage } from '../../../lib/error-message';
import { usePagedSearch } from '../../../lib/use-paged-search';
import { usePermissions } from '../../../lib/session/use-permission';
import { useCreatePosition } from '../api/create-position';
import { usePositions } from '../api/get-positions';
import { useSetPositionStatus } from '../api/set-position-status';
import { useUpdatePosition } from '../api/update-position';
import { PositionActionsMenu } from '../components/position-actions-menu';
import { PositionDialog } from '../components/position-dialog';
import { labels } from '../labels';

const ALL = 'all';
const FORM_FIELDS = ['title', 'department', 'location', 'openings'] as const;

/** Server field errors (400) mapped onto the form. */
function fieldErrorsOf(error: unknown): Partial<Record<keyof PositionForm, string>> | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const found: Partial<Record<keyof PositionForm, string>> = {};
  for (const field of FORM_FIELDS) {
    const message = error.fieldErrors[field]?.[0];
    if (message) found[field] = message;
  }
  return Object.keys(found).length > 0 ? found : undefined;
}

/** {prefix}/positions: the organization's job positions with create, edit and close. */
export function PositionsPage() {
  const { can, holder } = usePermissions();
  const isSuperAdmin = holder.isSuperAdmin;
  const canCreate = can('positions', 'CREATE');
  const canUpdate = can('positions', 'UPDATE');

  const { searchInput, setSearchInput, search, page, setPage, pageSize, setPageSize } = usePagedSearch();
  const [status, setStatus] = useState<PositionStatus | typeof ALL>(ALL);
  const [dialog, setDialog] = useState<{ position: Position | null } | null>(null);
  const [serverErrors, setServerErrors] = useState<Partial<Record<keyof PositionForm, string>>>();
  const [toClose, setToClose] = useState<Position | null>(null);

  const positions = usePositions({
    page: page + 1,
    pageSize,
    search: search || undefined,
    status: status === ALL ? undefined : status,
  });
  const create = useCreatePosition();
  const update = useUpdatePosition();
  const setStatusMutation = useSetPositionStatus();

  const openDialog = (position: Position | null) => {
    setServerErrors(undefined);
    setDialog({ position });
  };

  const save = async (values: PositionForm) => {
    const editing = dialog?.position ?? null;
    try {
      if (editing) {
        await update.mutateAsync({ id: editing.id, body: values });
        enqueueSnackbar(messages.positions.updated, { variant: 'success' });
      } else {
        await create.mutateAsync(values);
        enqueueSnackbar(messages.positions.created, { variant: 'success' });
      }
      setDialog(null);
    } catch (error) {
      setServerErrors(fieldErrorsOf(error));
      enqueueSnackbar(extractErrorMessage(error, messages.positions.saveFailed), { variant: 'error' });
    }
  };

  const changeStatus = async (position: Position, action: 'close' | 'reopen') => {
    try {
      await setStatusMutation.mutateAsync({ id: position.id, action });
      enqueueSnackbar(action === 'close' ? messages.positions.closed : messages.positions.reopened, {
        variant: 'success',
      });
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.common.anErrorOccurred), { variant: 'error' });
    } finally {
      setToClose(null);
    }
  };

  // Only the super administrator sees positions of more than one organization.
  const organizationColumn: DataColumn<Position>[] = isSuperAdmin
    ? [{ label: 'Organization', render: (p) => p.organizationName }]
    : [];
  const columns: DataColumn<Position>[] = [
    { label: 'Title', card: 'title', render: (p) => p.title },
    { label: 'Department', card: 'subtitle', render: (p) => p.department },
    { label: 'Location', render: (p) => p.location },
    ...organizationColumn,
    { label: 'Openings', align: 'right', render: (p) => formatCount(p.openings) },
    {
      label: 'Status',
      render: (p) => (
        <Chip
          size="small"
          label={p.status}
          color={p.status === 'Open' ? 'success' : 'default'}
          variant={p.status === 'Open' ? 'filled' : 'outlined'}
        />
      ),
    },
    { label: 'Created', render: (p) => <time dateTime={p.createdAt}>{formatDate(p.createdAt)}</time> },
  ];
  return (
    <Box>
      <PageHeader
        title={messages.positions.title}
        actions={
          <>
            <ImportButton kind="positions" label={labels.importPositions} />
            {canCreate && (
              <Button variant="contained" startIcon={<AddIcon />} onClick={() => openDialog(null)}>
                {messages.positions.addPosition}
              </Button>
            )}
          </>
        }
      />
      <Paper variant="outlined">
        <ListToolbar>
          <SearchField
            value={searchInput}
            onChange={setSearchInput}
            placeholder={messages.positions.searchPlaceholder}
            label={messages.positions.search}
          />
          <FormControl size="small" sx={{ minWidth: 160 }}>
            <InputLabel id="position-status-label">Status</InputLabel>
            <Select
              labelId="position-status-label"
              label="Status"
              value={status}
              onChange={(event) => {
                setStatus(event.target.value as PositionStatus | typeof ALL);
                setPage(0);
              }}
            >
              <MenuItem value={ALL}>All statuses</MenuItem>
              {POSITION_STATUSES.map((s) => (
                <MenuItem key={s} value={s}>
                  {s}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
        </ListToolbar>
        <DataTable
          label={messages.positions.title}
          columns={columns}
          rows={positions.data?.items ?? []}
          rowKey={(p) => p.id}
          loading={positions.isPending}
          error={
            positions.isError
              ? extractErrorMessage(positions.error, messages.positions.loadFailed)
              : undefined
          }
          emptyText={messages.positions.empty}
          pagination={{
            count: positions.data?.meta.total ?? 0,
            page,
            pageSize,
            onPageChange: setPage,
            pageSizes: ADMIN_USER_PAGE_SIZES,
            onPageSizeChange: setPageSize,
          }}
          actions={
            canUpdate
              ? {
                  label: 'Action',
                  render: (position) => (
                    <PositionActionsMenu
                      position={position}
                      onEdit={(p) => openDialog(p)}
                      onClose={(p) => setToClose(p)}
                      onReopen={(p) => void changeStatus(p, 'reopen')}
                    />
                  ),
                }
              : undefined
          }
        />
      </Paper>
      <PositionDialog
        open={dialog !== null}
        position={dialog?.position ?? null}
        busy={create.isPending || update.isPending}
        serverErrors={serverErrors}
        onSubmit={(values) => void save(values)}
        onClose={() => setDialog(null)}
      />
      <ConfirmDialog
        open={toClose !== null}
        title={messages.positions.closePosition}
        message={messages.positions.closeConfirm}
        confirmLabel={messages.positions.closePosition}
        busy={setStatusMutation.isPending}
        onConfirm={() => toClose && void changeStatus(toClose, 'close')}
        onClose={() => setToClose(null)}
        destructive
      />
    </Box>
  );
}
