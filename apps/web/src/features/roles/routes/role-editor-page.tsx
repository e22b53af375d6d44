import { useEffect, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Paper, Stack, TextField, Typography } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { z } from 'zod';
import { messages, REDIRECT_AFTER_SAVE_MS, roleNameSchema, type Feature, type Scope } from '@portal/shared';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api-client';
import { extractErrorMessage } from '../../../lib/error-message';
import { useRoutePrefix } from '../../../lib/use-route-prefix';
import { useCreateRole } from '../api/create-role';
import { useFeatures } from '../api/get-features';
import { useRole } from '../api/get-role';
import { useUpdateRole } from '../api/update-role';
import { PermissionGrid } from '../components/permission-grid';
import { PermissionHelp } from '../components/permission-help';
import {
  gridFromRole,
  payloadFromGrid,
  roleFormError,
  toggleScope,
  type ScopeGrid,
} from '../utils/role-form';
import { FeaturesShapeError } from '../utils/role-shape';
import { useCanGrant } from '../utils/use-can-grant';

/** Navigation state of {base}/addrole: editing when isEditing, with the role's id. */
export interface RoleEditorState {
  isEditing?: boolean;
  roleId?: string;
}

const formSchema = z.object({ name: roleNameSchema });
type FormValues = z.input<typeof formSchema>;

/** The role editor's toasts for a failed feature load. */
function featuresErrorText(error: unknown): string {
  if (error instanceof FeaturesShapeError) return messages.roles.noFeaturesInResponse;
  if (error instanceof ApiError) return messages.roles.loadFeaturesFailed;
  return messages.roles.loadFeaturesDataFailed;
}

/** Add Role and Edit Role ({base}/addrole with navigation state isEditing and roleId). */
export function RoleEditorPage() {
  const base = useRoutePrefix();
  const state = (useLocation().state ?? {}) as RoleEditorState;
  const roleId = state.isEditing && state.roleId ? state.roleId : undefined;
  const isEditing = roleId !== undefined;
  const listPath = `${base}/userroles`;

  const features = useFeatures();
  const role = useRole(roleId);

  const noFeatures = features.isSuccess && features.data.length === 0;
  useEffect(() => {
    if (features.error) enqueueSnackbar(featuresErrorText(features.error), { variant: 'error' });
  }, [features.error]);
  useEffect(() => {
    if (noFeatures) enqueueSnackbar(messages.roles.noFeaturesInResponse, { variant: 'error' });
  }, [noFeatures]);
  useEffect(() => {
    if (role.error) {
      const text =
        role.error instanceof ApiError ? messages.roles.loadForEditFailed : messages.roles.loadFailed;
      enqueueSnackbar(text, { variant: 'error' });
    }
  }, [role.error]);

  const loadError = features.isError || noFeatures || role.isError;
  const ready = features.isSuccess && (!isEditing || role.isSuccess);
  // Legacy bitmask entries arrive in the list shape (role-shape.ts), so the grid reads either.
  const initial =
    ready && role.data ? { name: role.data.name, grid: gridFromRole(role.data, features.data) } : null;
  return (
    <RoleForm
      // A new form for each loaded role, so its fields start from that role.
      key={`${roleId ?? 'new'}:${ready ? 'ready' : 'waiting'}`}
      roleId={roleId}
      listPath={listPath}
      features={features.data ?? []}
      initialName={initial?.name ?? ''}
      initialGrid={initial?.grid ?? {}}
      loading={!loadError && !ready}
      blocked={loadError || role.data?.isSystem === true}
      systemRole={role.data?.isSystem === true}
    />
  );
}

interface RoleFormProps {
  roleId: string | undefined;
  listPath: string;
  features: Feature[];
  initialName: string;
  initialGrid: ScopeGrid;
  loading: boolean;
  /** Something failed to load, or the role may not be edited: Save stays disabled. */
  blocked: boolean;
  systemRole: boolean;
}

function RoleForm({
  roleId,
  listPath,
  features,
  initialName,
  initialGrid,
  loading,
  blocked,
  systemRole,
}: RoleFormProps) {
  const isEditing = roleId !== undefined;
  const navigate = useNavigate();
  const canGrant = useCanGrant();
  const createRole = useCreateRole();
  const updateRole = useUpdateRole();
  const [grid, setGrid] = useState<ScopeGrid>(initialGrid);
  const [saved, setSaved] = useState(false);

  const { register, handleSubmit, formState, setError, control } = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    // Validated on blur, then on every change so a fixed name clears its error at once.
    mode: 'onTouched',
    defaultValues: { name: initialName },
  });
  const name = useWatch({ control, name: 'name' });

  // Back to the roles list 1.5 s after a successful save.
  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => navigate(listPath), REDIRECT_AFTER_SAVE_MS);
    return () => clearTimeout(timer);
  }, [saved, navigate, listPath]);

  const saving = createRole.isPending || updateRole.isPending;
  const saveDisabled =
    loading ||
    blocked ||
    !!formState.errors.name ||
    name.trim() === '' ||
    features.length === 0 ||
    saving ||
    saved;

  const onSave = handleSubmit(async (values) => {
    const problem = roleFormError(values.name, grid);
    if (problem?.field === 'name') {
      setError('name', { message: problem.message });
      return;
    }
    if (problem) {
      enqueueSnackbar(problem.message, { variant: 'error' });
      return;
    }
    const payload = payloadFromGrid(values.name, grid, features);
    try {
      if (roleId !== undefined) await updateRole.mutateAsync({ id: roleId, payload });
      else await createRole.mutateAsync(payload);
      setSaved(true);
      enqueueSnackbar(isEditing ? messages.roles.updatedToast : messages.roles.addedToast, {
        variant: 'success',
      });
    } catch (error) {
      const message = extractErrorMessage(error, messages.common.unexpectedRetry);
      if (error instanceof ApiError && (error.status === 409 || error.fieldErrors.name)) {
        setError('name', { message: error.fieldErrors.name?.[0] ?? message });
      }
      enqueueSnackbar(message, { variant: 'error' });
    }
  });

  return (
    <Box>
      <PageHeader
        title={isEditing ? messages.roles.editHeading : messages.roles.newHeading}
        backTo={listPath}
        backLabel={messages.roles.backToRoles}
      />
      {systemRole && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {messages.roles.systemReadOnly}
        </Alert>
      )}
      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={3} sx={{ alignItems: 'flex-start' }}>
        <Paper
          variant="outlined"
          component="form"
          noValidate
          onSubmit={onSave}
          sx={{ p: 3, flex: 1, width: '100%' }}
        >
          {loading ? (
            <Stack direction="row" spacing={2} role="status" sx={{ alignItems: 'center', py: 4 }}>
              <CircularProgress size={24} aria-hidden />
              <Typography>{messages.roles.loading}</Typography>
            </Stack>
          ) : (
            <Stack spacing={3}>
              <TextField
                label={messages.roles.roleNameLabel}
                required
                fullWidth
                disabled={systemRole}
                {...register('name')}
                error={!!formState.errors.name}
                helperText={formState.errors.name?.message}
              />
              <PermissionGrid
                features={features}
                grid={grid}
                disabled={systemRole || saving || saved}
                canGrant={canGrant}
                onToggle={(featureId: string, scope: Scope, on: boolean) =>
                  setGrid((g) => toggleScope(g, featureId, scope, on))
                }
              />
            </Stack>
          )}
          <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end', mt: 3 }}>
            <Button onClick={() => navigate(listPath)}>{messages.roles.cancel}</Button>
            <Button type="submit" variant="contained" disabled={saveDisabled}>
              {isEditing ? messages.roles.updateRole : messages.roles.saveRole}
            </Button>
          </Stack>
        </Paper>
        <Box sx={{ width: { xs: '100%', lg: 320 }, flexShrink: 0 }}>
          <PermissionHelp />
        </Box>
      </Stack>
    </Box>
  );
}
