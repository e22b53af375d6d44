import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  InputAdornment,
  MenuItem,
  Paper,
  Stack,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import SearchIcon from '@mui/icons-material/Search';
import { useNavigate } from 'react-router';
import { useSnackbar } from 'notistack';
import {
  activateUserConfirm,
  ADMIN_USER_PAGE_SIZES,
  deactivateUserConfirm,
  DEFAULT_PAGE_SIZE,
  INTERVIEW_BOT_PRODUCT_NAME,
  messages,
  SYSTEM_ROLES,
  type User,
} from '@portal/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeader } from '../../../components/page-header';
import { useRoutePrefix } from '../../../app/use-route-prefix';
import { extractErrorMessage } from '../../../lib/error-message';
import { useAuth } from '../../auth/auth-context';
import { useCan } from '../../auth/use-permission';
import { useExportUsers } from '../api/export-users';
import { useUsers } from '../api/get-users';
import { useResendInvite } from '../api/resend-invite';
import { useSetUserActive } from '../api/set-user-active';
import { UserActionsMenu } from '../components/user-actions-menu';
import { UserDetailsPanel } from '../components/user-details-panel';
import { UserStatus } from '../components/user-status';

import { SEARCH_DEBOUNCE_MS } from '../utils/search';
const COLUMNS = [
  messages.users.idColumn,
  messages.users.nameColumn,
  messages.users.productsColumn,
  messages.users.emailColumn,
  messages.users.roleColumn,
  messages.users.statusColumn,
  messages.users.actionColumn,
];

/** Admin Users ({prefix}/usermanagement): the users whose role is admin, paged by the server. */
export function UsersListPage() {
  const prefix = useRoutePrefix();
  const navigate = useNavigate();
  const can = useCan();
  const { user: me } = useAuth();
  const { enqueueSnackbar } = useSnackbar();
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [viewed, setViewed] = useState<User | null>(null);
  const [toToggle, setToToggle] = useState<User | null>(null);
  const canRead = can('users', 'READ');
  const canUpdate = can('users', 'UPDATE');
  const users = useUsers(
    { page: page + 1, pageSize, search: search || undefined, role: SYSTEM_ROLES.admin },
    { enabled: canRead },
  );
  const setActive = useSetUserActive();
  const resend = useResendInvite();
  const exportUsers = useExportUsers();

  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(searchInput.trim());
      setPage(0);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchInput]);

  const editUser = (u: User) => navigate(`${prefix}/inviteuser?edit=${encodeURIComponent(u.id)}`);

  const confirmToggle = async () => {
    if (!toToggle) return;
    const active = !toToggle.isActive;
    try {
      const updated = await setActive.mutateAsync({ id: toToggle.id, active });
      enqueueSnackbar(active ? messages.users.activated : messages.users.deactivated, { variant: 'success' });
      // SPEC.md §4: the list and the selected user are updated.
      if (viewed?.id === updated.id) setViewed(updated);
    } catch (error) {
      enqueueSnackbar(
        extractErrorMessage(
          error,
          active ? messages.fallback.activateUser : messages.fallback.deactivateUser,
        ),
        { variant: 'error' },
      );
    } finally {
      setToToggle(null);
    }
  };

  const resendInvite = async (u: User) => {
    try {
      const { message } = await resend.mutateAsync(u.id);
      enqueueSnackbar(message || messages.users.inviteResent, { variant: 'success' });
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.fallback.inviteUser), { variant: 'error' });
    }
  };

  const download = async () => {
    try {
      await exportUsers.mutateAsync({ search: search || undefined, role: SYSTEM_ROLES.admin });
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.users.exportFailed), { variant: 'error' });
    }
  };

  const tabs = (
    <Tabs value="subuser" sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
      <Tab value="subuser" label={messages.users.subuserTab} />
      {can('roles', 'READ') && (
        <Tab value="roles" label={messages.users.rolesTab} onClick={() => navigate(`${prefix}/userroles`)} />
      )}
    </Tabs>
  );

  if (!canRead) {
    return (
      <Box>
        <PageHeader title={messages.users.title} />
        <Alert severity="error">{messages.http.forbidden}</Alert>
      </Box>
    );
  }

  const rows = users.data?.users ?? [];
  const total = users.data?.meta.total ?? 0;
  return (
    <Box>
      <PageHeader
        title={messages.users.title}
        actions={
          <>
            {can('users', 'EXPORT') && (
              <Button
                variant="outlined"
                startIcon={<FileDownloadIcon />}
                onClick={download}
                disabled={exportUsers.isPending}
              >
                {messages.common.exportToExcel}
              </Button>
            )}
            {can('users', 'CREATE') && (
              <Button
                variant="contained"
                startIcon={<PersonAddIcon />}
                onClick={() => navigate(`${prefix}/inviteuser`)}
              >
                {messages.users.inviteAdmin}
              </Button>
            )}
          </>
        }
      />
      {tabs}
      <Paper variant="outlined">
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ p: 2, alignItems: { sm: 'center' } }}
        >
          <TextField
            size="small"
            value={searchInput}
            onChange={(event) => setSearchInput(event.target.value)}
            placeholder={messages.users.search}
            sx={{ width: { xs: '100%', sm: 360 } }}
            slotProps={{
              htmlInput: { 'aria-label': messages.users.search },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
          <TextField
            select
            size="small"
            label={messages.users.pageSize}
            value={pageSize}
            onChange={(event) => {
              setPageSize(Number(event.target.value));
              setPage(0);
            }}
            sx={{ width: 140 }}
          >
            {ADMIN_USER_PAGE_SIZES.map((size) => (
              <MenuItem key={size} value={size}>
                {size}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        {users.isError && (
          <Alert severity="error" sx={{ mx: 2, mb: 2 }}>
            {extractErrorMessage(users.error, messages.fallback.fetchUsers)}
          </Alert>
        )}
        <TableContainer>
          <Table aria-label={messages.users.title}>
            <TableHead>
              <TableRow>
                {COLUMNS.map((c) => (
                  <TableCell key={c}>{c}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {users.isPending ? (
                <TableRow>
                  <TableCell colSpan={COLUMNS.length} align="center">
                    <CircularProgress size={24} aria-label={messages.common.loading} />
                  </TableCell>
                </TableRow>
              ) : rows.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={COLUMNS.length} align="center">
                    {messages.users.empty}
                  </TableCell>
                </TableRow>
              ) : (
                rows.map((u) => (
                  <TableRow key={u.id} hover>
                    <TableCell sx={{ fontFamily: 'monospace' }} title={u.id}>
                      #{u.id.slice(0, 8)}
                    </TableCell>
                    <TableCell>
                      <Typography variant="body2">{u.username}</Typography>
                      {u.fullName && (
                        <Typography variant="caption" color="text.secondary">
                          {u.fullName}
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell>{INTERVIEW_BOT_PRODUCT_NAME}</TableCell>
                    <TableCell>{u.email}</TableCell>
                    <TableCell>{u.role.name}</TableCell>
                    <TableCell>
                      <UserStatus user={u} />
                    </TableCell>
                    <TableCell>
                      <UserActionsMenu
                        user={u}
                        canUpdate={canUpdate}
                        isSelf={u.id === me?.id}
                        onEdit={editUser}
                        onView={setViewed}
                        onToggleActive={setToToggle}
                        onResendInvite={resendInvite}
                      />
                    </TableCell>
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination
          component="div"
          count={total}
          page={total === 0 ? 0 : Math.min(page, Math.max(0, Math.ceil(total / pageSize) - 1))}
          rowsPerPage={pageSize}
          // The page size is chosen in the controls above (SPEC.md §2).
          rowsPerPageOptions={[]}
          onPageChange={(_event, next) => setPage(next)}
        />
      </Paper>
      <UserDetailsPanel
        user={viewed}
        canUpdate={canUpdate}
        onClose={() => setViewed(null)}
        onEdit={editUser}
      />
      <ConfirmDialog
        open={!!toToggle}
        title={toToggle?.isActive ? messages.users.deactivateTitle : messages.users.activateTitle}
        message={
          toToggle
            ? toToggle.isActive
              ? deactivateUserConfirm(toToggle.username)
              : activateUserConfirm(toToggle.username)
            : ''
        }
        confirmLabel={toToggle?.isActive ? messages.users.deactivate : messages.users.activate}
        destructive={!!toToggle?.isActive}
        busy={setActive.isPending}
        onConfirm={confirmToggle}
        onClose={() => setToToggle(null)}
      />
    </Box>
  );
}
