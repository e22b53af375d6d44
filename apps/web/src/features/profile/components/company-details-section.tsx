import { useEffect } from 'react';
import { Alert, Box, Button, CircularProgress, Grid, MenuItem, Stack, TextField } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { enqueueSnackbar } from '../../../lib/snackbar';
import {
  ABOUT_US_MAX,
  companyDetailsFormSchema,
  currentYear,
  FOUNDED_IN_MIN,
  INDIAN_STATES,
  messages,
  stateLabel,
  type CompanyDetailsFields,
  type CompanyDetailsFormValues,
  type User,
} from '@portal/shared';
import { extractErrorMessage } from '../../../lib/error-message';
import { useCompany, type CompanyAnswer } from '../api/get-company';
import { useSaveCompany } from '../api/save-company';
import { hasActiveSubscription } from '../utils/subscription';

type FieldName = keyof CompanyDetailsFormValues;

interface FieldSpec {
  name: FieldName;
  label: string;
  required?: boolean;
  type?: string;
  inputMode?: 'numeric' | 'url' | 'email';
  autoComplete?: string;
  wide?: boolean;
  multiline?: boolean;
  /** A select of these choices instead of a text field. */
  options?: readonly { value: string; label: string }[];
  /** Typed in capitals (a GSTIN). */
  upperCase?: boolean;
}

/** The GST state: none, or one of the states and union territories, "Karnataka (29)". */
const GST_STATE_OPTIONS = [
  { value: '', label: 'Not set' },
  ...INDIAN_STATES.map((s) => ({ value: s.code, label: stateLabel(s.code) })),
];

/** Company Details, in order, and which are required (docs/product.md, "Profile and company details"). */
const FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Company Name', required: true, autoComplete: 'organization' },
  { name: 'email', label: 'Company Email', required: true, type: 'email', inputMode: 'email' },
  { name: 'address', label: 'Address', required: true, wide: true, autoComplete: 'street-address' },
  { name: 'country', label: 'Country', required: true, autoComplete: 'country-name' },
  { name: 'state', label: 'State', required: true, autoComplete: 'address-level1' },
  { name: 'city', label: 'City', required: true, autoComplete: 'address-level2' },
  { name: 'pincode', label: 'Pincode', required: true, inputMode: 'numeric', autoComplete: 'postal-code' },
  { name: 'industryType', label: 'Industry Type', required: true },
  { name: 'foundedIn', label: 'Founded In', required: true, inputMode: 'numeric' },
  { name: 'websiteUrl', label: 'Website URL', required: true, type: 'url', inputMode: 'url' },
  { name: 'linkedinUrl', label: 'LinkedIn URL', type: 'url', inputMode: 'url' },
  { name: 'instagramUrl', label: 'Instagram URL', type: 'url', inputMode: 'url' },
  { name: 'facebookUrl', label: 'Facebook URL', type: 'url', inputMode: 'url' },
  { name: 'aboutUs', label: 'About Us', wide: true, multiline: true },
  // The buyer's particulars on its tax invoices (docs/product.md, "Tax invoices").
  { name: 'gstStateCode', label: 'GST State', options: GST_STATE_OPTIONS },
  { name: 'gstin', label: 'GSTIN', upperCase: true },
];

const EMPTY: CompanyDetailsFormValues = {
  name: '',
  email: '',
  address: '',
  country: '',
  state: '',
  city: '',
  pincode: '',
  industryType: '',
  foundedIn: '',
  websiteUrl: '',
  linkedinUrl: '',
  instagramUrl: '',
  facebookUrl: '',
  aboutUs: '',
  gstStateCode: '',
  gstin: '',
};

/**
 * The form's values: the saved record, or, while none is saved, the company name typed on the
 * invite and the GST particulars given at onboarding. The server makes the organization and the
 * user's `client` from that name, but no company record until Company Details is first saved (it
 * needs the required fields), so its read answers null.
 */
function formValues(answer: CompanyAnswer, companyName?: string | null): CompanyDetailsFormValues {
  const { details, onboarding } = answer;
  if (!details) {
    return {
      ...EMPTY,
      name: companyName?.trim() ?? '',
      gstStateCode: (onboarding?.gstStateCode ?? '') as CompanyDetailsFormValues['gstStateCode'],
      gstin: onboarding?.gstin ?? '',
    };
  }
  return {
    ...EMPTY,
    ...details,
    foundedIn: String(details.foundedIn),
    linkedinUrl: details.linkedinUrl ?? '',
    instagramUrl: details.instagramUrl ?? '',
    facebookUrl: details.facebookUrl ?? '',
    aboutUs: details.aboutUs ?? '',
    gstStateCode: (details.gstStateCode ?? '') as CompanyDetailsFormValues['gstStateCode'],
    gstin: details.gstin ?? '',
  };
}

const hints: Partial<Record<FieldName, string>> = {
  pincode: '6 digits',
  foundedIn: `${FOUNDED_IN_MIN}–${currentYear()}`,
  websiteUrl: 'https://…',
  aboutUs: `Up to ${ABOUT_US_MAX} characters`,
  gstStateCode: 'The place of supply on your tax invoices',
  gstin: 'Leave empty if the company is not registered for GST',
};

/** Section 'Company Details' of My Profile, saved through POST /auth/companies. */
export function CompanyDetailsSection({
  profile,
  canEdit,
}: {
  profile: Pick<User, 'organizationId' | 'isSubscription' | 'client'>;
  canEdit: boolean;
}) {
  const organizationId = profile.organizationId || null;
  const company = useCompany(organizationId);
  const saveCompany = useSaveCompany();
  const { control, handleSubmit, reset } = useForm<CompanyDetailsFormValues, unknown, CompanyDetailsFields>({
    resolver: zodResolver(companyDetailsFormSchema),
    defaultValues: EMPTY,
    mode: 'onTouched',
  });

  const companyName = profile.client;
  useEffect(() => {
    if (company.data !== undefined) reset(formValues(company.data, companyName));
  }, [company.data, companyName, reset]);

  const save = handleSubmit(async (values) => {
    if (!organizationId) {
      enqueueSnackbar(messages.profile.organizationIdRequired, { variant: 'error' });
      return;
    }
    if (!hasActiveSubscription(profile)) {
      enqueueSnackbar(messages.profile.subscriptionExpiredCompany, { variant: 'error' });
      return;
    }
    try {
      await saveCompany.mutateAsync({ organizationId, ...values });
      enqueueSnackbar(messages.profile.companySaved, { variant: 'success' });
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.fallback.saveCompany), { variant: 'error' });
    }
  });

  if (company.isPending && organizationId) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
        <CircularProgress aria-label={messages.common.loading} />
      </Box>
    );
  }
  if (company.isError) return <Alert severity="error">{messages.company.loadFailed}</Alert>;

  const busy = saveCompany.isPending;
  return (
    <Box component="form" noValidate onSubmit={save} aria-label={messages.profile.companyDetails}>
      <Grid container spacing={2.5}>
        {FIELDS.map((spec) => (
          <Grid key={spec.name} size={{ xs: 12, md: spec.wide ? 12 : 6 }}>
            <Controller
              name={spec.name}
              control={control}
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  value={field.value ?? ''}
                  onChange={(event) =>
                    field.onChange(spec.upperCase ? event.target.value.toUpperCase() : event.target.value)
                  }
                  inputRef={field.ref}
                  label={spec.label}
                  required={spec.required}
                  select={!!spec.options}
                  type={spec.options ? undefined : (spec.type ?? 'text')}
                  autoComplete={spec.autoComplete ?? 'off'}
                  fullWidth
                  multiline={spec.multiline}
                  minRows={spec.multiline ? 3 : undefined}
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message ?? hints[spec.name]}
                  slotProps={{ htmlInput: { readOnly: !canEdit, inputMode: spec.inputMode } }}
                >
                  {spec.options?.map((option) => (
                    <MenuItem key={option.value} value={option.value}>
                      {option.label}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
          </Grid>
        ))}
      </Grid>
      {canEdit && (
        <Stack direction="row" spacing={1.5} sx={{ mt: 3 }}>
          <Button type="submit" variant="contained" disabled={busy}>
            {messages.profile.save}
          </Button>
          <Button
            variant="outlined"
            onClick={() => enqueueSnackbar(messages.company.nextAlert, { variant: 'info' })}
          >
            {messages.company.next}
          </Button>
        </Stack>
      )}
    </Box>
  );
}
