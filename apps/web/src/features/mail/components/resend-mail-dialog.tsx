import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import {
  formatDateTime,
  MAIL_KIND_LABELS,
  messages,
  resendMailSchema,
  type MailAttempt,
  type UndeliveredMail,
} from '@portal/shared';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { ApiError } from '../../../lib/api-client';
import { extractErrorMessage } from '../../../lib/error-message';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { useMailAttempts } from '../api/get-mail-attempts';
import { isStaleMail, useResendMail } from '../api/resend-mail';
import { labels, OUTCOME_LABELS } from '../labels';

/** The dialog's form: the address is always there (prefilled with the recipient), by the shared email rule. */
const resendFormSchema = resendMailSchema.required();
interface ResendFormValues {
  to: string;
}

/** An attempt and its place in the list: two attempts may share a time to the millisecond. */
interface NumberedAttempt extends MailAttempt {
  n: number;
}

const ATTEMPT_COLUMNS: DataColumn<NumberedAttempt>[] = [
  {
    label: labels.time,
    card: 'title',
    render: (a) => <time dateTime={a.attemptedAt}>{formatDateTime(a.attemptedAt)}</time>,
    cellSx: { whiteSpace: 'nowrap' },
  },
  { label: labels.outcome, card: 'subtitle', render: (a) => OUTCOME_LABELS[a.outcome] },
  { label: labels.smtpCode, render: (a) => a.smtpCode ?? labels.noAnswer },
  {
    label: labels.error,
    render: (a) => a.error ?? labels.noError,
    cellSx: { overflowWrap: 'anywhere', minWidth: 160 },
  },
];

/**
 * Send again: every delivery attempt of the mail, in full, and the address to send it to (the
 * recipient's, or a corrected one). Mounted once per opening.
 */
export function ResendMailDialog({ mail, onClose }: { mail: UndeliveredMail; onClose: () => void }) {
  const attempts = useMailAttempts(mail.id);
  const resend = useResendMail();
  const { register, handleSubmit, setError, formState } = useForm<ResendFormValues>({
    resolver: zodResolver(resendFormSchema),
    defaultValues: { to: mail.to },
  });
  const busy = resend.isPending;

  const submit = handleSubmit(async ({ to }) => {
    try {
      enqueueSnackbar(await resend.mutateAsync({ id: mail.id, body: { to } }), { variant: 'success' });
      onClose();
    } catch (error) {
      const onField = error instanceof ApiError ? error.fieldErrors.to?.[0] : undefined;
      if (onField) setError('to', { type: 'server', message: onField }, { shouldFocus: true });
      enqueueSnackbar(extractErrorMessage(error, labels.resendFailed), { variant: 'error' });
      // Gone, or sent meanwhile: nothing left to send from here; the list is read again.
      if (isStaleMail(error)) onClose();
    }
  });

  const to = formState.errors.to;
  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      fullWidth
      maxWidth="md"
      aria-labelledby="resend-mail-dialog-title"
    >
      {/* A flex column, as the dialog's paper is: the title and buttons stay put while a long list of attempts scrolls. */}
      <Box
        component="form"
        noValidate
        onSubmit={submit}
        sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}
      >
        <DialogTitle id="resend-mail-dialog-title">{messages.mail.resend}</DialogTitle>
        <DialogContent>
          <Box
            component="dl"
            sx={{
              display: 'grid',
              gridTemplateColumns: 'max-content minmax(0, 1fr)',
              columnGap: 2,
              rowGap: 0.5,
              m: 0,
              mb: 2,
            }}
          >
            {(
              [
                [labels.recipient, mail.to],
                [labels.subject, mail.subject],
                [labels.kind, MAIL_KIND_LABELS[mail.kind]],
                [labels.organization, mail.organizationName ?? labels.noOrganization],
              ] as const
            ).map(([term, value]) => (
              <Box key={term} sx={{ display: 'contents' }}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {term}
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                  {value}
                </Typography>
              </Box>
            ))}
          </Box>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {messages.mail.attemptsTitle}
          </Typography>
          <Box sx={{ mx: -2, mb: 2 }}>
            <DataTable
              label={messages.mail.attemptsTitle}
              columns={ATTEMPT_COLUMNS}
              rows={(attempts.data ?? []).map((a, n) => ({ ...a, n }))}
              rowKey={(a) => String(a.n)}
              loading={attempts.isPending}
              error={
                attempts.isError ? extractErrorMessage(attempts.error, labels.attemptsFailed) : undefined
              }
              emptyText={labels.noAttempts}
              size="small"
            />
          </Box>
          <Stack spacing={2}>
            <TextField
              label={messages.mail.resendTo}
              type="email"
              required
              autoFocus
              {...register('to')}
              error={!!to}
              helperText={to?.message ?? labels.resendHint}
              slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false } }}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {labels.cancel}
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {messages.mail.resend}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
