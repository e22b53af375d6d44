import { useEffect, useRef } from 'react';
import { Alert, Box, Button, CircularProgress, InputAdornment, Paper, Stack, TextField } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { enqueueSnackbar } from '../../../lib/snackbar';
import {
  COUNTRY_CODE,
  messages,
  REDIRECT_AFTER_SAVE_MS,
  REQUIRED_ROLE_TOAST_MS,
  SYSTEM_ROLES,
  userContactFieldsSchema,
  type CreateUserBody,
} from '@portal/shared';
import { PageHeader } from '../../../components/page-header';
import { Refusal } from '../../../components/refusal';
import { useRoutePrefix } from '../../../lib/use-route-prefix';
import { usePermissions } from '../../../lib/session/use-permission';
import { extractErrorMessage } from '../../../lib/error-message';
import { useAssignableRoles } from '../api/get-assignable-roles';
import { useUser } from '../api/get-user';
import { useUpdateUser } from '../api/update-user';
import { toastFirstError } from '../../../lib/toast-first-error';
import { savePendingUserData } from '../utils/pending-user';

type ContactFields = Pick<CreateUserBody, 'email' | 'username' | 'mobileNo' | 'client'>;
const EMPTY: ContactFields = { username: '', email: '', mobileNo: '', client: '' };
const FIELD_ORDER = Object.keys(userContactFieldsSchema.shape) as (keyof ContactFields)[];

/**
 * Invite ({prefix}/inviteuser, alias {base}/usermanagement/invite) and edit (?edit={userId}).
 * Create keeps the entered data as `pendingUserData` and continues on the subscription screen;
 * edit saves directly. Rules are checked in order, each failure an error toast (docs/product.md,
 * "Users and invitations").
 */
export function InviteUserPage() {
  const prefix = useRoutePrefix();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const editId = searchParams.get('edit');
  const editMode = !!editId;
  const listPath = `${prefix}/usermanagement`;

  const { mayManage } = usePermissions();
  const roles = useAssignableRoles();
  const adminRole = roles.data?.find((r) => r.name.toLowerCase() === SYSTEM_ROLES.admin) ?? null;
  const editedUser = useUser(editId);
  const updateUser = useUpdateUser();
  const { register, handleSubmit, reset, formState } = useForm({
    resolver: zodResolver(userContactFieldsSchema),
    defaultValues: EMPTY,
  });
  const saved = updateUser.isSuccess;

  // After a successful edit, back to the list after 1.5 s.
  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => navigate(listPath), REDIRECT_AFTER_SAVE_MS);
    return () => clearTimeout(timer);
  }, [saved, navigate, listPath]);

  // No role named ADMIN means the form cannot proceed (toast for 5 s).
  const warnedNoAdmin = useRef(false);
  useEffect(() => {
    if (warnedNoAdmin.current || roles.isPending || (roles.isSuccess && adminRole)) return;
    warnedNoAdmin.current = true;
    enqueueSnackbar(messages.users.adminRoleNotFound, {
      variant: 'error',
      autoHideDuration: REQUIRED_ROLE_TOAST_MS,
    });
  }, [roles.isPending, roles.isSuccess, adminRole]);

  useEffect(() => {
    const u = editedUser.data;
    if (u)
      reset({ username: u.username, email: u.email, mobileNo: u.mobileNo ?? '', client: u.client ?? '' });
  }, [editedUser.data, reset]);

  useEffect(() => {
    if (editedUser.isError) {
      enqueueSnackbar(extractErrorMessage(editedUser.error, messages.fallback.loadUserDetails), {
        variant: 'error',
      });
    }
  }, [editedUser.isError, editedUser.error]);

  // Checked once the fields are valid, in this order, each failure a toast.
  const submit = async (data: ContactFields) => {
    const problem = !adminRole
      ? messages.users.adminRoleIdMissing
      : editMode && !editedUser.data
        ? messages.users.userNotLoaded
        : null;
    if (problem) {
      enqueueSnackbar(problem, { variant: 'error' });
      return;
    }
    if (!editMode) {
      const organizationId = crypto.randomUUID();
      savePendingUserData({
        ...data,
        organizationId,
        roleId: adminRole!.id,
        isSubscription: false,
        isActive: true,
        createAsAdmin: true,
      });
      navigate(`${prefix}/subscription?organizationId=${encodeURIComponent(organizationId)}`);
      return;
    }
    const user = editedUser.data!;
    try {
      await updateUser.mutateAsync({
        id: user.id,
        body: { username: data.username, email: user.email, mobileNo: data.mobileNo, client: data.client },
      });
      enqueueSnackbar(messages.users.updated, { variant: 'success' });
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.fallback.updateUserScreen), { variant: 'error' });
    }
  };

  const busy = formState.isSubmitting || updateUser.isPending || saved;
  // The server refuses to edit a user whose role is wider than the editor's; so does the page.
  if (editedUser.data && !mayManage(editedUser.data.role.permissions)) return <Refusal />;
  return (
    <Box>
      <PageHeader
        title={editMode ? messages.users.editTitle : messages.users.addTitle}
        subtitle={editMode ? undefined : messages.users.inviteHint}
        backTo={listPath}
        backLabel={messages.users.backToUserManagement}
      />
      <Paper variant="outlined" sx={{ p: 3, maxWidth: 640 }}>
        {editMode && editedUser.isPending ? (
          <Box sx={{ textAlign: 'center', py: 4 }}>
            <CircularProgress aria-label={messages.common.loading} />
          </Box>
        ) : (
          <Box component="form" noValidate onSubmit={handleSubmit(submit, toastFirstError(FIELD_ORDER))}>
            {editMode && editedUser.isError && (
              <Alert severity="error" sx={{ mb: 2 }}>
                {messages.users.userNotLoaded}
              </Alert>
            )}
            <Stack spacing={2.5}>
              <TextField label={messages.users.usernameLabel} autoComplete="off" {...register('username')} />
              <TextField
                label={messages.users.emailLabel}
                type="email"
                autoComplete="off"
                disabled={editMode}
                helperText={editMode ? messages.users.emailLocked : undefined}
                {...register('email')}
              />
              <TextField
                label={messages.users.contactLabel}
                inputMode="numeric"
                autoComplete="off"
                slotProps={{
                  input: { startAdornment: <InputAdornment position="start">{COUNTRY_CODE}</InputAdornment> },
                  htmlInput: { maxLength: 10 },
                }}
                {...register('mobileNo')}
              />
              <TextField label={messages.users.companyLabel} autoComplete="off" {...register('client')} />
              <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end' }}>
                <Button size="large" onClick={() => navigate(listPath)} disabled={busy}>
                  {messages.users.cancel}
                </Button>
                <Button type="submit" variant="contained" size="large" disabled={busy}>
                  {editMode ? messages.users.updateUser : messages.users.continueToSubscription}
                </Button>
              </Stack>
            </Stack>
          </Box>
        )}
      </Paper>
    </Box>
  );
}
