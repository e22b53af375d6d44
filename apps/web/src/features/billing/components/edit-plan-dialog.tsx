import { useMemo } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Grid,
  Skeleton,
  TextField,
  Typography,
} from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { MAX_CREDITS, messages, type BillingPlan } from '@portal/shared';
import { ApiError } from '../../../lib/api-client';
import { extractErrorMessage } from '../../../lib/error-message';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { useChangePlanTerms } from '../api/change-plan-terms';
import { useOrganizationPlan } from '../api/get-billing-plan';
import { labels } from '../labels';
import {
  PLAN_TERMS_FIELDS,
  planTermsFormFromPlan,
  planTermsFormSchema,
  planTermsFromForm,
  type PlanTermsFormValues,
} from '../utils/plan-terms-form';
import { liveAmounts } from '../utils/subscription-form';
import { AmountsFields } from './amounts-fields';

const TITLE_ID = 'edit-plan-title';

type ChangeTerms = ReturnType<typeof useChangePlanTerms>;

/** The form, once the plan's terms today are read: they fill it. */
function PlanTermsForm({
  organizationId,
  plan,
  change,
  onClose,
}: {
  organizationId: string;
  plan: BillingPlan;
  change: ChangeTerms;
  onClose: () => void;
}) {
  const defaultValues = useMemo(() => planTermsFormFromPlan(plan), [plan]);
  const { control, register, handleSubmit, setError, formState } = useForm<PlanTermsFormValues>({
    resolver: zodResolver(planTermsFormSchema),
    defaultValues,
    mode: 'onTouched',
  });
  const values = useWatch({ control });
  const amounts = useMemo(() => liveAmounts(values), [values]);
  const busy = change.isPending;

  const submit = handleSubmit(async (form) => {
    try {
      await change.mutateAsync({ organizationId, body: planTermsFromForm(form) });
      enqueueSnackbar(labels.planTermsSaved, { variant: 'success' });
      onClose();
    } catch (error) {
      // The server's objection to a term, on the field it is typed in as well as in the toast.
      const fields = error instanceof ApiError ? error.fieldErrors : {};
      for (const [term, name] of Object.entries(PLAN_TERMS_FIELDS)) {
        const message = fields[term]?.[0];
        if (message) setError(name, { type: 'server', message });
      }
      enqueueSnackbar(extractErrorMessage(error, labels.planTermsFailed), { variant: 'error' });
    }
  });

  const errors = formState.errors;
  return (
    <Box component="form" noValidate onSubmit={submit}>
      <DialogContent sx={{ pt: 0 }}>
        <Alert severity="info" sx={{ mb: 2 }}>
          {labels.editPlanHint}
        </Alert>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 4 }}>
            <TextField
              {...register('credits')}
              label={labels.creditsPerMonthField}
              type="number"
              required
              fullWidth
              autoFocus
              slotProps={{ htmlInput: { min: 1, max: MAX_CREDITS, step: 1 } }}
              error={!!errors.credits}
              helperText={errors.credits?.message}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <TextField
              {...register('pricePerCredit')}
              label={labels.pricePerCredit}
              type="number"
              required
              fullWidth
              slotProps={{ htmlInput: { min: 1, step: 0.01 } }}
              error={!!errors.pricePerCredit}
              helperText={errors.pricePerCredit?.message}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <TextField
              {...register('gstPercent')}
              label={labels.gstPercent}
              type="number"
              required
              fullWidth
              slotProps={{ htmlInput: { min: 0, max: 100, step: 0.01 } }}
              error={!!errors.gstPercent}
              helperText={errors.gstPercent?.message}
            />
          </Grid>
          <AmountsFields amounts={amounts} />
          <Grid size={12}>
            <TextField
              {...register('rolloverCap')}
              label={labels.rolloverCap}
              type="number"
              fullWidth
              slotProps={{ htmlInput: { min: 0, max: MAX_CREDITS, step: 1 } }}
              error={!!errors.rolloverCap}
              helperText={errors.rolloverCap?.message ?? labels.rolloverCapHint}
            />
          </Grid>
        </Grid>
      </DialogContent>
      <DialogActions disableSpacing sx={{ gap: 1, px: 3, pb: 2, flexWrap: 'wrap' }}>
        <Button onClick={onClose} disabled={busy}>
          {labels.cancel}
        </Button>
        <Button type="submit" variant="contained" disabled={busy}>
          {labels.savePlan}
        </Button>
      </DialogActions>
    </Box>
  );
}

/**
 * The platform operator edits an organization's plan (Renewals page): credits a month, price per
 * credit (₹, sent in paise), GST (%, sent in basis points) and the rollover cap (empty: unused
 * credits never expire), from its next renewal not yet announced. Mounted once per opening.
 */
export function EditPlanDialog({
  organizationId,
  organizationName,
  onClose,
}: {
  organizationId: string;
  organizationName: string;
  onClose: () => void;
}) {
  const view = useOrganizationPlan(organizationId);
  const change = useChangePlanTerms();
  const plan = view.data?.plan ?? null;

  return (
    <Dialog
      open
      onClose={change.isPending ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby={TITLE_ID}
    >
      <DialogTitle id={TITLE_ID} sx={{ overflowWrap: 'anywhere' }}>
        {labels.editPlanTitle(organizationName)}
      </DialogTitle>
      {plan ? (
        <PlanTermsForm organizationId={organizationId} plan={plan} change={change} onClose={onClose} />
      ) : (
        <>
          <DialogContent sx={{ pt: 0 }}>
            {view.isPending && <Skeleton height={160} />}
            {view.isError && (
              <Alert severity="error">{extractErrorMessage(view.error, labels.planLoadFailed)}</Alert>
            )}
            {view.data && <Typography>{messages.renewals.planNotFound}</Typography>}
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button onClick={onClose}>{labels.cancel}</Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
