import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  InputAdornment,
  Link,
  Paper,
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
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import { useNavigate } from 'react-router';
import { useSnackbar } from 'notistack';
import { ADMIN_USER_PAGE_SIZES, DEFAULT_PAGE_SIZE, messages, type Role } from '@portal/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeader } from '../../../components/page-header';
import { extractErrorMessage } from '../../../lib/error-message';
import { useRoutePrefix } from '../../../app/use-route-prefix';
import { useCan } from '../../auth/use-permission';
import { useDeleteRole } from '../api/delete-role';
import { useRoles } from '../api/get-roles';
import { RoleActionsMenu } from '../components/role-actions-menu';
import { RolePermissionsPanel } from '../components/role-permissions-panel';
import { formatRoleId } from '../utils/role-shape';
import type { RoleEditorState } from './role-editor-page';

const SEARCH_DEBOUNCE_MS = 300;
const COLUMNS = [
  messages.roles.roleIdColumn,
  messages.roles.roleColumn,
  messages.roles.statusColumn,
  messages.roles.permissionsColumn,
  messages.roles.actionColumn,
];

/** Roles list ({prefix}/userroles), reached from the Roles tab of Admin Users. */
export function RolesListPage() {
  const prefix = useRoutePrefix();
  const navigate = useNavigate();
  const can = useCan();
  const { enqueueSnackbar } = useSnackbar();
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [panelRole, setPanelRole] = useState<Role | null>(null);
  const [toDelete, setToDelete] = useState<Role | null>(null);
  const deleteRole = useDeleteRole();
  const canRead = can('roles', 'READ');
  const roles = useRoles({ page: page + 1, pageSize, search: search || undefined }, { enabled: canRead });

  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(searchInput.trim());
      setPage(0);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchInput]);

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

  const tabs = (
    <Tabs value="roles" sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
      {can('users', 'READ') && (
        <Tab
          value="subuser"
          label={messages.users.subuserTab}
          onClick={() => navigate(`${prefix}/usermanagement`)}
        />
      )}
      <Tab value="roles" label={messages.users.rolesTab} />
    </Tabs>
  );

  if (!canRead) {
    return (
      <Box>
        <PageHeader title={messages.roles.title} />
        <Alert severity="error">{messages.http.forbidden}</Alert>
      </Box>
    );
  }

  const rows = roles.data?.roles ?? [];
  return (
    <Box>
      <PageHeader
        title={messages.roles.title}
        actions={
          can('roles', 'CREATE') && (
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
        <Box sx={{ p: 2 }}>
          <TextField
            size="small"
            value={searchInput}
            onChange={(event) => setSearchInput(event.target.value)}
            placeholder={messages.roles.search}
            sx={{ width: { xs: '100%', sm: 360 } }}
            slotProps={{
              htmlInput: { 'aria-label': messages.roles.search },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
        </Box>
        {roles.isError && (
          <Alert severity="error" sx={{ mx: 2, mb: 2 }}>
            {extractErrorMessage(roles.error, messages.fallback.fetchRoles)}
          </Alert>
        )}
        <TableContainer>
          <Table aria-label={messages.roles.title}>
            <TableHead>
              <TableRow>
                {COLUMNS.map((c) => (
                  <TableCell key={c}>{c}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {roles.isPending ? (
                <TableRow>
                  <TableCell colSpan={COLUMNS.length} align="center">
                    <CircularProgress size={24} aria-label={messages.common.loading} />
                  </TableCell>
                </TableRow>
              ) : rows.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={COLUMNS.length} align="center">
                    {messages.roles.empty}
                  </TableCell>
                </TableRow>
              ) : (
                rows.map((role) => (
                  <TableRow key={role.id} hover>
                    <TableCell sx={{ fontFamily: 'monospace', maxWidth: 180, wordBreak: 'break-all' }}>
                      {formatRoleId(role.id)}
                    </TableCell>
                    <TableCell>{role.name}</TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        label={role.isSystem ? messages.roles.system : messages.roles.custom}
                        color={role.isSystem ? 'default' : 'primary'}
                        variant={role.isSystem ? 'filled' : 'outlined'}
                      />
                    </TableCell>
                    <TableCell>
                      <Link
                        component="button"
                        type="button"
                        onClick={() => setPanelRole(role)}
                        aria-label={`${messages.roles.viewPermissions}: ${role.name}`}
                      >
                        {messages.roles.viewPermissions}
                      </Link>
                    </TableCell>
                    <TableCell>
                      <RoleActionsMenu
                        role={role}
                        canEdit={can('roles', 'UPDATE')}
                        canDelete={can('roles', 'DELETE')}
                        onView={(r) =>
                          navigate(`${prefix}/userpermissions/${r.id}`, { state: { roleId: r.id } })
                        }
                        onEdit={(r) =>
                          navigate(`${prefix}/addrole`, {
                            state: { isEditing: true, roleId: r.id } satisfies RoleEditorState,
                          })
                        }
                        onDelete={setToDelete}
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
          count={roles.data?.meta.total ?? 0}
          page={page}
          onPageChange={(_event, next) => setPage(next)}
          rowsPerPage={pageSize}
          rowsPerPageOptions={[...ADMIN_USER_PAGE_SIZES]}
          onRowsPerPageChange={(event) => {
            setPageSize(Number(event.target.value));
            setPage(0);
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
