import type { ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useLocation, useParams } from 'react-router';
import { messages, normalizeFeature, viewOnlyTitle } from '@portal/shared';
import { PageHeader } from '../../../components/page-header';
import { useRoutePrefix } from '../../../lib/use-route-prefix';
import { useFeatures } from '../api/get-features';
import { useRole } from '../api/get-role';
import { FeatureName } from '../components/feature-name';
import { PermissionMark, PermissionMarkLegend } from '../components/permission-mark';
import { viewOnlyPermissions } from '../utils/role-form';

type Row = ReturnType<typeof viewOnlyPermissions>[number];

const COLUMNS = [messages.roles.view, messages.roles.createEdit, messages.roles.cancelDelete];

/** The view-only role permission screen ({prefix}/userpermissions[/:roleId]). */
export function RolePermissionsPage() {
  const prefix = useRoutePrefix();
  const params = useParams();
  const state = (useLocation().state ?? {}) as { roleId?: string };
  const roleId = params.roleId ?? state.roleId;
  const role = useRole(roleId);
  const features = useFeatures();
  const backTo = `${prefix}/userroles`;
  // Below `sm` each module is a block with its three marks one under another: four columns do not fit.
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });

  let content;
  if (!roleId || role.isError) {
    content = <Alert severity="error">{messages.roles.notFound}</Alert>;
  } else if (role.isPending || features.isPending) {
    content = (
      <Stack direction="row" spacing={2} role="status" sx={{ alignItems: 'center', py: 4 }}>
        <CircularProgress size={24} aria-hidden />
        <Typography>{messages.roles.loading}</Typography>
      </Stack>
    );
  } else {
    // Without the feature list, the role's own entries still show (with the default description).
    const featureList =
      features.data ??
      role.data.permissions.map((p) => normalizeFeature({ id: p.featureId, name: p.featureName }));
    const rows = viewOnlyPermissions(role.data, featureList);
    content = (
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {messages.roles.commonPermission}
        </Typography>
        <PermissionMarkLegend />
        {phone ? <PermissionBlocks rows={rows} /> : <PermissionTable rows={rows} />}
        <Stack direction="row" sx={{ justifyContent: 'flex-end', mt: 3 }}>
          <Button variant="contained" disabled>
            {messages.roles.save}
          </Button>
        </Stack>
      </Paper>
    );
  }

  return (
    <Box>
      <PageHeader
        title={role.data ? viewOnlyTitle(role.data.name) : messages.roles.title}
        backTo={backTo}
        backLabel={messages.roles.backToRoles}
      />
      {content}
    </Box>
  );
}

/** A module's three marks, each with its column's name; Cancel/Delete is not offered on the Dashboard. */
function marksOf(row: Row): { column: string; mark: ReactNode; isCheckbox: boolean }[] {
  const mark = (allowed: boolean, column: string) => (
    <PermissionMark allowed={allowed} label={`${row.name} ${column}`} />
  );
  return [
    { column: messages.roles.view, mark: mark(row.view, messages.roles.view), isCheckbox: true },
    {
      column: messages.roles.createEdit,
      mark: mark(row.createEdit, messages.roles.createEdit),
      isCheckbox: true,
    },
    {
      column: messages.roles.cancelDelete,
      mark: row.deleteDisabledSpecial ? (
        <Typography variant="caption" color="text.secondary">
          {messages.roles.notAvailable}
        </Typography>
      ) : (
        mark(row.delete, messages.roles.cancelDelete)
      ),
      isCheckbox: !row.deleteDisabledSpecial,
    },
  ];
}

function PermissionTable({ rows }: { rows: Row[] }) {
  return (
    <TableContainer>
      <Table size="small" aria-label={messages.roles.commonPermission}>
        <TableHead>
          <TableRow>
            <TableCell>{messages.roles.moduleColumn}</TableCell>
            {COLUMNS.map((c) => (
              <TableCell key={c} align="center">
                {c}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.featureId}>
              <TableCell>
                <FeatureName feature={row} />
              </TableCell>
              {marksOf(row).map(({ column, mark, isCheckbox }) => (
                <TableCell key={column} align="center" padding={isCheckbox ? 'checkbox' : 'normal'}>
                  {mark}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** The phone layout: one block per module, its marks listed under its name. */
function PermissionBlocks({ rows }: { rows: Row[] }) {
  return (
    <Stack component="ul" aria-label={messages.roles.commonPermission} sx={{ p: 0, m: 0 }}>
      {rows.map((row) => (
        <Box
          component="li"
          key={row.featureId}
          sx={{
            listStyle: 'none',
            py: 1.5,
            '&:not(:last-of-type)': { borderBottom: 1, borderColor: 'divider' },
          }}
        >
          <FeatureName feature={row} />
          {marksOf(row).map(({ column, mark }) => (
            <Stack
              key={column}
              direction="row"
              sx={{ alignItems: 'center', justifyContent: 'space-between' }}
            >
              <Typography variant="body2">{column}</Typography>
              {mark}
            </Stack>
          ))}
        </Box>
      ))}
    </Stack>
  );
}
