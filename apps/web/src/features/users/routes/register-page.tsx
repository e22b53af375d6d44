import { useEffect, useMemo, useState } from 'react';
import { Autocomplete, Box, Button, InputAdornment, MenuItem, Paper, Stack, TextField } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { useNavigate } from 'react-router';
import { enqueueSnackbar } from '../../../lib/snackbar';
import {
  COUNTRY_CODE,
  messages,
  SYSTEM_ROLES,
  userContactFieldsSchema,
  type OrganizationSummary,
} from '@portal/shared';
import { PageHeader } from '../../../components/page-header';
import { useRoutePrefix } from '../../../lib/use-route-prefix';
import { extractErrorMessage } from '../../../lib/error-message';
import { useAuth } from '../../../lib/session/auth-context';
import { usePermissions } from '../../../lib/session/use-permission';
import { useAssignableRoles } from '../api/get-assignable-roles';
import { useOrganizations } from '../../../lib/organizations/get-organizations';
import { useRegisterUser } from '../api/register-user';
import { toastFirstError } from '../../../lib/toast-first-error';
import { SEARCH_DEBOUNCE_MS } from '../../../lib/use-paged-search';

/** Checked in this order, the first broken rule a toast: organization, the contact fields, role. */
const registerFormSchema = z.object({
  organizationId: z.string().min(1, messages.users.organizationRequired),
  ...userContactFieldsSchema.shape,
  roleId: z.string().min(1, messages.users.roleRequired),
});
type RegisterFormValues = z.input<typeof registerFormSchema>;
const FIELD_ORDER = Object.keys(registerFormSchema.shape) as (keyof RegisterFormValues)[];

/**
 * Register ({prefix}/register): a member of an existing organization with any role it can see,
 * custom roles included: this is how someone gets a custom role. The person receives an email
 * link to set a password.
 */
export function RegisterPage() {
  const prefix = useRoutePrefix();
  const navigate = useNavigate();
  const { holder, mayManage, mayOpen } = usePermissions();
  const { user } = useAuth();
  const isSuperAdmin = holder.isSuperAdmin;
  const [orgInput, setOrgInput] = useState('');
  const [orgSearch, setOrgSearch] = useState('');
  const organizations = useOrganizations(orgSearch || undefined, { enabled: isSuperAdmin });
  const [selectedOrg, setSelectedOrg] = useState<OrganizationSummary | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => setOrgSearch(orgInput.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [orgInput]);
  const { register, handleSubmit, control, setValue, reset, formState } = useForm({
    resolver: zodResolver(registerFormSchema),
    defaultValues: {
      username: '',
      email: '',
      mobileNo: '',
      // The company of the organization the user joins: none until the super administrator chooses one.
      client: isSuperAdmin ? '' : (user?.client ?? ''),
      organizationId: isSuperAdmin ? '' : (user?.organizationId ?? ''),
      roleId: '',
    },
  });
  const organizationId = useWatch({ control, name: 'organizationId' });
  const roleId = useWatch({ control, name: 'roleId' });
  const roles = useAssignableRoles(isSuperAdmin ? organizationId || undefined : undefined, {
    enabled: !!organizationId,
  });
  const registerUser = useRegisterUser();

  // super_admin is a platform role, offered only for the platform organization; and nobody is offered
  // a role wider than their own, which the server refuses.
  const roleOptions = useMemo(
    () =>
      (roles.data ?? []).filter(
        (r) =>
          (r.organizationId === null || r.organizationId === organizationId) &&
          (r.name !== SYSTEM_ROLES.superAdmin || (isSuperAdmin && !!selectedOrg?.isPlatform)) &&
          mayManage(r.permissions),
      ),
    [roles.data, organizationId, isSuperAdmin, selectedOrg, mayManage],
  );

  // The company name follows the chosen organization (empty while none is) until the user types their own.
  useEffect(() => {
    if (isSuperAdmin && !formState.dirtyFields.client) setValue('client', selectedOrg?.name ?? '');
  }, [isSuperAdmin, selectedOrg, formState.dirtyFields.client, setValue]);

  const submit = async (values: z.output<typeof registerFormSchema>) => {
    try {
      const created = await registerUser.mutateAsync(values);
      enqueueSnackbar(`${messages.users.inviteSent}: ${created.email}`, { variant: 'success' });
      reset({ ...values, username: '', email: '', mobileNo: '', roleId: '' });
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.fallback.inviteUser), { variant: 'error' });
    }
  };

  return (
    <Box>
      <PageHeader
        title={messages.users.registerTitle}
        subtitle={messages.users.registerSubtitle}
        backTo={mayOpen('usermanagement') ? `${prefix}/usermanagement` : undefined}
        backLabel={messages.users.backToUserManagement}
      />
      <Paper variant="outlined" sx={{ p: 3, maxWidth: 640 }}>
        <Box component="form" noValidate onSubmit={handleSubmit(submit, toastFirstError(FIELD_ORDER))}>
          <Stack spacing={2.5}>
            {isSuperAdmin ? (
              <Autocomplete
                options={organizations.data ?? []}
                value={selectedOrg}
                getOptionLabel={(o) => o.name}
                isOptionEqualToValue={(a, b) => a.id === b.id}
                filterOptions={(options) => options}
                loading={organizations.isFetching}
                inputValue={orgInput}
                onInputChange={(_event, value) => setOrgInput(value)}
                onChange={(_event, org) => {
                  setSelectedOrg(org);
                  setValue('organizationId', org?.id ?? '', { shouldDirty: true });
                  setValue('roleId', '');
                }}
                renderInput={(params) => (
                  <TextField
                    {...params}
                    label={messages.users.organizationLabel}
                    error={organizations.isError}
                    helperText={
                      organizations.isError
                        ? extractErrorMessage(organizations.error, messages.common.anErrorOccurred)
                        : undefined
                    }
                  />
                )}
              />
            ) : (
              <TextField
                label={messages.users.organizationLabel}
                value={user?.client ?? user?.organizationId ?? ''}
                disabled
              />
            )}
            <TextField
              select
              label={messages.users.roleColumn}
              value={roleId}
              onChange={(event) => setValue('roleId', event.target.value, { shouldDirty: true })}
              disabled={!organizationId}
              helperText={
                roles.isError ? extractErrorMessage(roles.error, messages.fallback.fetchRoles) : undefined
              }
              error={roles.isError}
            >
              {roleOptions.map((r) => (
                <MenuItem key={r.id} value={r.id}>
                  {r.name}
                </MenuItem>
              ))}
            </TextField>
            <TextField label={messages.users.usernameLabel} autoComplete="off" {...register('username')} />
            <TextField
              label={messages.users.emailLabel}
              type="email"
              autoComplete="off"
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
              <Button
                size="large"
                onClick={() => navigate(`${prefix}/usermanagement`)}
                disabled={registerUser.isPending}
              >
                {messages.users.cancel}
              </Button>
              <Button type="submit" variant="contained" size="large" disabled={registerUser.isPending}>
                {messages.users.sendInvitation}
              </Button>
            </Stack>
          </Stack>
        </Box>
      </Paper>
    </Box>
  );
}
