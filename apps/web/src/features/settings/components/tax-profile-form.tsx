import { useEffect } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Grid,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch, type DefaultValues } from 'react-hook-form';
import {
  DEFAULT_CREDIT_NOTE_PREFIX,
  DEFAULT_INVOICE_PREFIX,
  DEFAULT_SAC,
  documentNumber,
  financialYearOf,
  INDIAN_STATES,
  messages,
  sellerTaxProfileBodySchema,
  stateLabel,
  type SellerTaxProfile,
  type SellerTaxProfileBody,
  type SellerTaxProfileFields,
  type StateCode,
} from '@portal/shared';
import { ApiError } from '../../../lib/api-client';
import { extractErrorMessage } from '../../../lib/error-message';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { toastFirstError } from '../../../lib/toast-first-error';
import { useTaxProfile } from '../api/get-tax-profile';
import { useSaveTaxProfile } from '../api/save-tax-profile';
import { labels } from '../labels';

type FieldName = keyof SellerTaxProfileBody;

/** The schema's order: the first broken rule is the toast. */
const FIELD_ORDER = Object.keys(sellerTaxProfileBodySchema.shape) as FieldName[];

interface FieldSpec {
  name: FieldName;
  label: string;
  wide?: boolean;
  multiline?: boolean;
  upperCase?: boolean;
  autoComplete?: string;
  hint?: string;
}

const FIELDS: FieldSpec[] = [
  { name: 'legalName', label: 'Legal name', wide: true, autoComplete: 'organization' },
  { name: 'address', label: 'Address', wide: true, multiline: true, autoComplete: 'street-address' },
  { name: 'stateCode', label: 'State' },
  { name: 'gstin', label: 'GSTIN', upperCase: true, hint: '15 characters, beginning with the state code' },
  { name: 'pan', label: 'PAN', upperCase: true, hint: 'Characters 3 to 12 of the GSTIN' },
  { name: 'sac', label: 'SAC code', hint: '6 digits beginning with 99' },
  { name: 'invoicePrefix', label: 'Invoice prefix', upperCase: true },
  { name: 'creditNotePrefix', label: 'Credit note prefix', upperCase: true },
  { name: 'signatory', label: "Signatory's name", wide: true, autoComplete: 'name' },
];

const STATE_OPTIONS = INDIAN_STATES.map((s) => ({ value: s.code, label: stateLabel(s.code) }));

function formValues(profile: SellerTaxProfile | null): DefaultValues<SellerTaxProfileBody> {
  return {
    legalName: profile?.legalName ?? '',
    address: profile?.address ?? '',
    ...(profile ? { stateCode: profile.stateCode as StateCode } : {}),
    gstin: profile?.gstin ?? '',
    pan: profile?.pan ?? '',
    sac: profile?.sac ?? DEFAULT_SAC,
    invoicePrefix: profile?.invoicePrefix ?? DEFAULT_INVOICE_PREFIX,
    creditNotePrefix: profile?.creditNotePrefix ?? DEFAULT_CREDIT_NOTE_PREFIX,
    signatory: profile?.signatory ?? '',
  };
}

/** `IC/26-27/000001`: how the next financial year's first document of a series will read. */
function firstNumber(prefix: string | undefined): string {
  return documentNumber((prefix ?? '').trim().toUpperCase() || '…', financialYearOf(new Date()).label, 1);
}

/**
 * Settings → Tax details, the platform operator's: the seller's particulars every tax invoice and
 * credit note carries. Until they are saved no payment can be taken, since none could be invoiced.
 */
export function TaxProfileForm() {
  const profile = useTaxProfile();
  const save = useSaveTaxProfile();
  const { control, handleSubmit, reset, setError } = useForm<
    SellerTaxProfileBody,
    unknown,
    SellerTaxProfileFields
  >({
    resolver: zodResolver(sellerTaxProfileBodySchema),
    defaultValues: formValues(null),
    mode: 'onTouched',
  });
  const [invoicePrefix, creditNotePrefix] = useWatch({
    control,
    name: ['invoicePrefix', 'creditNotePrefix'],
  });

  useEffect(() => {
    if (profile.data !== undefined) reset(formValues(profile.data));
  }, [profile.data, reset]);

  const submit = async (values: SellerTaxProfileFields) => {
    try {
      await save.mutateAsync(values);
      enqueueSnackbar(messages.tax.profileSaved, { variant: 'success' });
    } catch (error) {
      if (error instanceof ApiError) {
        for (const name of FIELD_ORDER) {
          const message = error.fieldErrors[name]?.[0];
          if (message) setError(name, { type: 'server', message });
        }
      }
      enqueueSnackbar(extractErrorMessage(error, messages.common.anErrorOccurred), { variant: 'error' });
    }
  };

  if (profile.isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
        <CircularProgress aria-label={messages.common.loading} />
      </Box>
    );
  }
  if (profile.isError) {
    return (
      <Alert severity="error">{extractErrorMessage(profile.error, messages.common.anErrorOccurred)}</Alert>
    );
  }

  const hints: Partial<Record<FieldName, string>> = {
    invoicePrefix: `Invoices are numbered ${firstNumber(invoicePrefix)}`,
    creditNotePrefix: `Credit notes are numbered ${firstNumber(creditNotePrefix)}`,
  };
  return (
    <Box
      component="form"
      noValidate
      aria-label={labels.taxDetails}
      onSubmit={handleSubmit(submit, toastFirstError(FIELD_ORDER))}
    >
      <Typography color="text.secondary" sx={{ mb: 2.5 }}>
        {labels.taxDetailsIntro}
      </Typography>
      {profile.data === null && (
        <Alert severity="warning" sx={{ mb: 2.5 }}>
          {messages.tax.profileMissing}
        </Alert>
      )}
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
                  required
                  select={spec.name === 'stateCode'}
                  autoComplete={spec.autoComplete ?? 'off'}
                  fullWidth
                  multiline={spec.multiline}
                  minRows={spec.multiline ? 2 : undefined}
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message ?? hints[spec.name] ?? spec.hint}
                >
                  {spec.name === 'stateCode' &&
                    STATE_OPTIONS.map((option) => (
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
      <Stack direction="row" sx={{ mt: 3 }}>
        <Button type="submit" variant="contained" disabled={save.isPending}>
          {labels.saveTaxDetails}
        </Button>
      </Stack>
    </Box>
  );
}
