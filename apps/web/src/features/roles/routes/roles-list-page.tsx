import { useState } from 'react';
import { Box, Button, Chip, Link, Paper, Stack, Tab, Tabs } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useNavigate } from 'react-router';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { ADMIN_USER_PAGE_SIZES, messages, REQUIREMENTS, SYSTEM_ROLES, type Role } from '@portal/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { ListToolbar, SearchField } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { ShortId } from '../../../components/short-id';
import { extractErrorMessage } from '../../../lib/error-message';
import { usePagedSearch } from '../../../lib/use-paged-search';
import { useRoutePrefix } from '../../../lib/use-route-prefix';
import { usePermissions } from '../../../lib/session/use-permission';
import { useDeleteRole } from '../api/delete-role';
import { useRoles } from '../api/get-roles';
import { useSetRoleTwoFactor } from '../api/set-role-two-factor';
import { RoleActionsMenu } from '../components/role-actions-menu';
import { RolePermissionsPanel } from '../components/role-permissions-panel';
import { TwoFactorRequiredChip } from '../components/two-factor-required-chip';
import { labels } from '../labels';
import { formatRoleId } from '../utils/role-shape';
import type { RoleEditorState } from './role-editor-page';

/** Roles list ({prefix}/userroles), reached from the Roles tab of Admin Users. */
export function RolesListPage() {
  const prefix = useRoutePrefix();
  const navigate = useNavigate();
  const { can, holder, mayManage, mayOpen, meets } = usePermissions();
  const { searchInput, setSearchInput, search, page, setPage, pageSize, setPageSize } = usePagedSearch();
  const [panelRole, setPanelRole] = useState<Role | null>(null);
  const [toDelete, setToDelete] = useState<Role | null>(null);
  const deleteRole = useDeleteRole();
  const setTwoFactor = useSetRoleTwoFactor();
  const requireTwoFactor = async (role: Role, required: boolean) => {
    try {
      const answer = await setTwoFactor.mutateAsync({ id: role.id, required });
      enqueueSnackbar(answer.message, { variant: 'success' });
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.http.forbidden), { variant: 'error' });
    }
  };
  const roles = useRoles({ page: page + 1, pageSize, search: search || undefined });

  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await deleteRole.mutateAsync(toDelete.id);
      enqueueSnackbar(messages.roles.deleted, { variant: 'success' });
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.fallback.deleteRoleScreen), { variant: 'error' });
    } finally {
      setToDelete(null);
    }
  };

  // Only the super administrator sees the roles of more than one organization: each custom role says whose.
  const organizationColumn: DataColumn<Role>[] = holder.isSuperAdmin
    ? [
        {
          label: messages.users.organizationLabel,
          card: 'subtitle',
          render: (role) =>
            role.organizationName ??
            (role.name === SYSTEM_ROLES.superAdmin
              ? labels.platformOnly
              : role.isSystem
                ? labels.allOrganizations
                : '—'),
          cellSx: { overflowWrap: 'anywhere' },
        },
      ]
    : [];
  const columns: DataColumn<Role>[] = [
    {
      label: messages.roles.roleIdColumn,
      render: (role) => <ShortId id={role.id} format={formatRoleId} />,
    },
    { label: messages.roles.roleColumn, card: 'title', render: (role) => role.name },
    ...organizationColumn,
    {
      label: messages.roles.statusColumn,
      render: (role) => (
        <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Chip
            size="small"
            label={role.isSystem ? messages.roles.system : messages.roles.custom}
            color={role.isSystem ? 'default' : 'primary'}
            variant={role.isSystem ? 'filled' : 'outlined'}
          />
          {role.requireTwoFactor && <TwoFactorRequiredChip />}
        </Stack>
      ),
    },
    {
      label: messages.roles.permissionsColumn,
      render: (role) => (
        <Link
          component="button"
          type="button"
          onClick={() => setPanelRole(role)}
          aria-label={`${messages.roles.viewPermissions}: ${role.name}`}
        >
          {messages.roles.viewPermissions}
        </Link>
      ),
    },
  ];

  const tabs = (
    <Tabs value="roles" sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
      {mayOpen('usermanagement') && (
        <Tab
          value="subuser"
          label={messages.users.subuserTab}
          onClick={() => navigate(`${prefix}/usermanagement`)}
        />
      )}
      <Tab value="roles" label={messages.users.rolesTab} />
    </Tabs>
  );

  return (
    <Box>
      <PageHeader
        title={messages.roles.title}
        actions={
          mayOpen('addrole', { state: { isEditing: false } }) && (
            <Button
              variant="contained"
              startIcon={<AddIcon />}
              onClick={() =>
                navigate(`${prefix}/addrole`, { state: { isEditing: false } satisfies RoleEditorState })
              }
            >
              {messages.roles.addRole}
            </Button>
          )
        }
      />
      {tabs}
      <Paper variant="outlined">
        <ListToolbar>
          <SearchField value={searchInput} onChange={setSearchInput} placeholder={messages.roles.search} />
        </ListToolbar>
        <DataTable
          label={messages.roles.title}
          columns={columns}
          rows={roles.data?.items ?? []}
          rowKey={(role) => role.id}
          loading={roles.isPending}
          error={roles.isError ? extractErrorMessage(roles.error, messages.fallback.fetchRoles) : undefined}
          emptyText={messages.roles.empty}
          pagination={{
            count: roles.data?.meta.total ?? 0,
            page,
            pageSize,
            onPageChange: setPage,
            pageSizes: ADMIN_USER_PAGE_SIZES,
            onPageSizeChange: setPageSize,
          }}
          actions={{
            label: messages.roles.actionColumn,
            render: (role) => (
              <RoleActionsMenu
                role={role}
                // Editing changes what every holder can do: only a role within one's own scopes.
                canEdit={mayOpen('addrole', { state: { isEditing: true } }) && mayManage(role.permissions)}
                canDelete={can('roles', 'DELETE')}
                canRequireTwoFactor={meets(REQUIREMENTS.requireTwoFactor)}
                onRequireTwoFactor={(r, required) => void requireTwoFactor(r, required)}
                onView={(r) => navigate(`${prefix}/userpermissions/${r.id}`, { state: { roleId: r.id } })}
                onEdit={(r) =>
                  navigate(`${prefix}/addrole`, {
                    state: { isEditing: true, roleId: r.id } satisfies RoleEditorState,
                  })
                }
                onDelete={setToDelete}
              />
            ),
          }}
        />
      </Paper>
      <RolePermissionsPanel role={panelRole} onClose={() => setPanelRole(null)} />
      <ConfirmDialog
        open={toDelete !== null}
        title={messages.roles.deleteTitle}
        message={messages.roles.deleteConfirm}
        confirmLabel={messages.roles.delete}
        destructive
        busy={deleteRole.isPending}
        onConfirm={confirmDelete}
        onClose={() => setToDelete(null)}
      />
    </Box>
  );
}
