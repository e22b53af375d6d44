import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  FormControl,
  InputLabel,
  MenuItem,
  Paper,
  Select,
  TableCell,
  TableRow,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { enqueueSnackbar } from '../../../lib/snackbar';
import {
  ADMIN_USER_PAGE_SIZES,
  messages,
  POSITION_STATUSES,
  SYSTEM_ROLES,
  type Position,
  type PositionForm,
  type PositionStatus,
} from '@portal/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { ListToolbar, SearchField } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api-client';
import { extractErrorMessage } from '../../../lib/error-message';
import { usePagedSearch } from '../../../lib/use-paged-search';
import { useAuth } from '../../auth/auth-context';
import { useCan } from '../../auth/use-permission';
import { useCreatePosition } from '../api/create-position';
import { usePositions } from '../api/get-positions';
import { useSetPositionStatus } from '../api/set-position-status';
import { useUpdatePosition } from '../api/update-position';
import { PositionActionsMenu } from '../components/position-actions-menu';
import { PositionDialog } from '../components/position-dialog';

const ALL = 'all';
const FORM_FIELDS = ['title', 'department', 'location', 'openings'] as const;

function formatCreated(iso: string): string {
  return new Date(iso).toLocaleDateString('en-IN', { dateStyle: 'medium' });
}

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

/** {prefix}/positions: the organization's job positions with create, edit and close (DECISIONS.md). */
export function PositionsPage() {
  const can = useCan();
  const { user } = useAuth();
  const isSuperAdmin = user?.role.name === SYSTEM_ROLES.superAdmin;
  const canRead = can('positions', 'READ');
  const canCreate = can('positions', 'CREATE');
  const canUpdate = can('positions', 'UPDATE');

  const { searchInput, setSearchInput, search, page, setPage, pageSize, setPageSize } = usePagedSearch();
  const [status, setStatus] = useState<PositionStatus | typeof ALL>(ALL);
  const [dialog, setDialog] = useState<{ position: Position | null } | null>(null);
  const [serverErrors, setServerErrors] = useState<Partial<Record<keyof PositionForm, string>>>();
  const [toClose, setToClose] = useState<Position | null>(null);

  const positions = usePositions(
    { page: page + 1, pageSize, search: search || undefined, status: status === ALL ? undefined : status },
    { enabled: canRead },
  );
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

  if (!canRead) {
    return (
      <Box>
        <PageHeader title={messages.positions.title} />
        <Alert severity="error">{messages.http.forbidden}</Alert>
      </Box>
    );
  }

  const columns: DataColumn[] = [
    { label: 'Title' },
    { label: 'Department' },
    { label: 'Location' },
    ...(isSuperAdmin ? [{ label: 'Organization' }] : []),
    { label: 'Openings', align: 'right' },
    { label: 'Status' },
    { label: 'Created' },
    ...(canUpdate ? [{ label: 'Action' }] : []),
  ];
  return (
    <Box>
      <PageHeader
        title={messages.positions.title}
        actions={
          canCreate && (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => openDialog(null)}>
              {messages.positions.addPosition}
            </Button>
          )
        }
      />
      <Paper variant="outlined">
        <ListToolbar>
          <SearchField
            value={searchInput}
            onChange={setSearchInput}
            placeholder={messages.positions.search}
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
          rows={positions.data?.data ?? []}
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
          renderRow={(position) => (
            <TableRow key={position.id} hover>
              <TableCell>{position.title}</TableCell>
              <TableCell>{position.department}</TableCell>
              <TableCell>{position.location}</TableCell>
              {isSuperAdmin && <TableCell>{position.organizationName}</TableCell>}
              <TableCell align="right">{position.openings}</TableCell>
              <TableCell>
                <Chip
                  size="small"
                  label={position.status}
                  color={position.status === 'Open' ? 'success' : 'default'}
                  variant={position.status === 'Open' ? 'filled' : 'outlined'}
                />
              </TableCell>
              <TableCell>
                <time dateTime={position.createdAt}>{formatCreated(position.createdAt)}</time>
              </TableCell>
              {canUpdate && (
                <TableCell>
                  <PositionActionsMenu
                    position={position}
                    onEdit={(p) => openDialog(p)}
                    onClose={(p) => setToClose(p)}
                    onReopen={(p) => void changeStatus(p, 'reopen')}
                  />
                </TableCell>
              )}
            </TableRow>
          )}
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
