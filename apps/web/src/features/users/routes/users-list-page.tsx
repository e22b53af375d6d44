import { useState } from 'react';
import { Box, Button, Paper, Tab, Tabs, Typography } from '@mui/material';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { useNavigate } from 'react-router';
import { enqueueSnackbar } from '../../../lib/snackbar';
import {
  activateUserConfirm,
  ADMIN_USER_PAGE_SIZES,
  deactivateUserConfirm,
  INTERVIEW_BOT_PRODUCT_NAME,
  messages,
  REQUIREMENTS,
  SYSTEM_ROLES,
  type Requirement,
  type User,
} from '@portal/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ImportButton } from '../../../components/import-button';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { ListToolbar, SearchField } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { ShortId } from '../../../components/short-id';
import { useRoutePrefix } from '../../../lib/use-route-prefix';
import { extractErrorMessage } from '../../../lib/error-message';
import { usePagedSearch } from '../../../lib/use-paged-search';
import { useAuth } from '../../../lib/session/auth-context';
import { usePermissions } from '../../../lib/session/use-permission';
import { useEndUserSessions } from '../api/end-user-sessions';
import { useExportUsers } from '../api/export-users';
import { useUsers } from '../api/get-users';
import { useResendInvite } from '../api/resend-invite';
import { useResetUserTwoFactor } from '../api/reset-two-factor';
import { useSetUserActive } from '../api/set-user-active';
import { UserActionsMenu } from '../components/user-actions-menu';
import { UserDetailsPanel } from '../components/user-details-panel';
import { UserStatus } from '../components/user-status';
import { labels } from '../labels';

const COLUMNS: DataColumn<User>[] = [
  { label: messages.users.idColumn, render: (u) => <ShortId id={u.id} /> },
  {
    label: messages.users.nameColumn,
    card: 'title',
    render: (u) => (
      <>
        <Typography variant="body2" sx={{ fontWeight: 'inherit' }}>
          {u.username}
        </Typography>
        {u.fullName && (
          <Typography variant="caption" color="text.secondary">
            {u.fullName}
          </Typography>
        )}
      </>
    ),
  },
  // Always the one product: not worth a line on a phone.
  { label: messages.users.productsColumn, card: 'none', render: () => INTERVIEW_BOT_PRODUCT_NAME },
  {
    label: messages.users.emailColumn,
    card: 'subtitle',
    render: (u) => u.email,
    cellSx: { overflowWrap: 'anywhere' },
  },
  { label: messages.users.roleColumn, render: (u) => u.role.name },
  { label: messages.users.statusColumn, render: (u) => <UserStatus user={u} /> },
];

/** Admin Users ({prefix}/usermanagement): the users whose role is admin, paged by the server. */
export function UsersListPage() {
  const prefix = useRoutePrefix();
  const navigate = useNavigate();
  const { can, mayManage, mayOpen, meets } = usePermissions();
  const { user: me } = useAuth();
  const { searchInput, setSearchInput, search, page, setPage, pageSize, setPageSize } = usePagedSearch();
  const [viewed, setViewed] = useState<User | null>(null);
  const [toToggle, setToToggle] = useState<User | null>(null);
  const [toSignOut, setToSignOut] = useState<User | null>(null);
  const canManage = (u: User) => can('users', 'UPDATE') && mayManage(u.role.permissions);
  const canEdit = (u: User) => canManage(u) && mayOpen('inviteuser', { search: `?edit=${u.id}` });
  // One's own sessions and factor are managed from Settings, where this browser's session is marked.
  const operatorMay = (u: User, requirement: Requirement) =>
    meets(requirement) && u.id !== me?.id && mayManage(u.role.permissions);
  const canEndSessions = (u: User) => operatorMay(u, REQUIREMENTS.endUserSessions);
  const canResetTwoFactor = (u: User) =>
    u.twoFactorEnabled === true && operatorMay(u, REQUIREMENTS.resetUserTwoFactor);
  const users = useUsers({ page: page + 1, pageSize, search: search || undefined, role: SYSTEM_ROLES.admin });
  const setActive = useSetUserActive();
  const resend = useResendInvite();
  const exportUsers = useExportUsers();
  const endSessions = useEndUserSessions();
  const resetTwoFactor = useResetUserTwoFactor();
  const [toReset, setToReset] = useState<User | null>(null);

  const editUser = (u: User) => navigate(`${prefix}/inviteuser?edit=${encodeURIComponent(u.id)}`);

  const confirmToggle = async () => {
    if (!toToggle) return;
    const active = !toToggle.isActive;
    try {
      const updated = await setActive.mutateAsync({ id: toToggle.id, active });
      enqueueSnackbar(active ? messages.users.activated : messages.users.deactivated, { variant: 'success' });
      // The list and the selected user both show the new state.
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

  const confirmEndSessions = async () => {
    if (!toSignOut) return;
    try {
      await endSessions.mutateAsync(toSignOut.id);
      enqueueSnackbar(messages.sessions.userSessionsEnded, { variant: 'success' });
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, labels.endSessionsFailed), { variant: 'error' });
    } finally {
      setToSignOut(null);
    }
  };

  const confirmResetTwoFactor = async () => {
    if (!toReset) return;
    try {
      enqueueSnackbar(await resetTwoFactor.mutateAsync(toReset.id), { variant: 'success' });
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, labels.resetTwoFactorFailed), { variant: 'error' });
    } finally {
      setToReset(null);
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
      {mayOpen('userroles') && (
        <Tab value="roles" label={messages.users.rolesTab} onClick={() => navigate(`${prefix}/userroles`)} />
      )}
    </Tabs>
  );

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
            <ImportButton kind="users" label={labels.importUsers} />
            <ImportButton kind="organizations" label={labels.importOrganizations} />
            {mayOpen('inviteuser') && (
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
        <ListToolbar>
          <SearchField value={searchInput} onChange={setSearchInput} placeholder={messages.users.search} />
        </ListToolbar>
        <DataTable
          label={messages.users.title}
          columns={COLUMNS}
          rows={users.data?.items ?? []}
          rowKey={(u) => u.id}
          loading={users.isPending}
          error={users.isError ? extractErrorMessage(users.error, messages.fallback.fetchUsers) : undefined}
          emptyText={messages.users.empty}
          pagination={{
            count: users.data?.meta.total ?? 0,
            page,
            pageSize,
            onPageChange: setPage,
            pageSizes: ADMIN_USER_PAGE_SIZES,
            onPageSizeChange: setPageSize,
          }}
          actions={{
            label: messages.users.actionColumn,
            render: (u) => (
              <UserActionsMenu
                user={u}
                canManage={canManage(u)}
                canEdit={canEdit(u)}
                isSelf={u.id === me?.id}
                canEndSessions={canEndSessions(u)}
                canResetTwoFactor={canResetTwoFactor(u)}
                onEdit={editUser}
                onView={setViewed}
                onToggleActive={setToToggle}
                onResendInvite={resendInvite}
                onEndSessions={setToSignOut}
                onResetTwoFactor={setToReset}
              />
            ),
          }}
        />
      </Paper>
      <UserDetailsPanel
        user={viewed}
        canEdit={viewed !== null && canEdit(viewed)}
        canEndSessions={viewed !== null && canEndSessions(viewed)}
        onClose={() => setViewed(null)}
        onEdit={editUser}
        onEndSessions={setToSignOut}
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
      <ConfirmDialog
        open={!!toSignOut}
        title={labels.endSessionsTitle}
        message={toSignOut ? labels.endSessionsConfirm(toSignOut.username) : ''}
        confirmLabel={labels.endSessions}
        destructive
        busy={endSessions.isPending}
        onConfirm={confirmEndSessions}
        onClose={() => setToSignOut(null)}
      />
      <ConfirmDialog
        open={!!toReset}
        title={labels.resetTwoFactorTitle}
        message={toReset ? labels.resetTwoFactorConfirm(toReset.username) : ''}
        confirmLabel={labels.resetTwoFactor}
        destructive
        busy={resetTwoFactor.isPending}
        onConfirm={confirmResetTwoFactor}
        onClose={() => setToReset(null)}
      />
    </Box>
  );
}
