import { useRef, useState, type ChangeEvent } from 'react';
import { Box, Button, Chip, IconButton, Link, Stack, TextField, Typography } from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import CloseIcon from '@mui/icons-material/Close';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { enqueueSnackbar } from '../../../lib/snackbar';
import {
  ATTACHMENT_ACCEPT,
  attachmentKind,
  createTicketBodySchema,
  formatDateTime,
  messages,
  ticketRequestLabels,
  type Ticket,
  type TicketType,
} from '@portal/shared';
import { extractErrorMessage } from '../../../lib/error-message';
import { useCreateTicket } from '../api/create-ticket';
import { attachmentProblem } from '../utils/ticket-format';

const messageSchema = createTicketBodySchema.pick({ message: true });
type MessageForm = { message: string };

/** A ticket loaded back into the form by View: read-only, with its attachment. */
function TicketView({ ticket, onNew }: { ticket: Ticket; onNew: () => void }) {
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          {messages.support.viewingTicket} {ticket.ticketId}
        </Typography>
        <Chip size="small" label={ticketRequestLabels[ticket.ticketType]} />
        <Chip size="small" label={ticket.status} color={ticket.status === 'Active' ? 'success' : 'default'} />
      </Stack>
      <TextField
        label={messages.support.messageLabel}
        value={ticket.message}
        multiline
        minRows={4}
        fullWidth
        slotProps={{ htmlInput: { readOnly: true } }}
      />
      <Typography variant="body2" component="div">
        {messages.support.attachmentLabel}:{' '}
        {ticket.file ? (
          <Link href={ticket.file} target="_blank" rel="noopener" download={ticket.name}>
            {ticket.name}
          </Link>
        ) : (
          messages.support.noFile
        )}{' '}
        {ticket.file && <Chip size="small" variant="outlined" label={attachmentKind(ticket.type)} />}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {ticket.createdByName ? `${ticket.createdByName} · ` : ''}
        {formatDateTime(ticket.createdAt)}
      </Typography>
      <Box>
        <Button variant="outlined" onClick={onNew}>
          {messages.support.newTicket}
        </Button>
      </Box>
    </Stack>
  );
}

/** 'Raise Ticket': message, optional attachment, Submit Feedback or Request a Call Back. */
export function RaiseTicketForm({
  viewing,
  onNew,
  canCreate,
}: {
  viewing: Ticket | null;
  onNew: () => void;
  canCreate: boolean;
}) {
  const createTicket = useCreateTicket();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [sending, setSending] = useState<TicketType | null>(null);
  const { control, handleSubmit, reset } = useForm<MessageForm>({
    resolver: zodResolver(messageSchema),
    defaultValues: { message: '' },
  });

  if (viewing) return <TicketView ticket={viewing} onNew={onNew} />;

  const chooseFile = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    event.target.value = '';
    if (!chosen) return;
    const problem = attachmentProblem(chosen);
    if (problem) {
      enqueueSnackbar(problem, { variant: 'error' });
      return;
    }
    setFile(chosen);
  };

  const send = (type: TicketType) =>
    handleSubmit(
      async ({ message }) => {
        setSending(type);
        try {
          await createTicket.mutateAsync({ message, type, file });
          enqueueSnackbar(
            type === 'callback' ? messages.support.callbackRequested : messages.support.submitted,
            {
              variant: 'success',
            },
          );
          reset({ message: '' });
          setFile(null);
        } catch (error) {
          enqueueSnackbar(extractErrorMessage(error, messages.support.submitFailed), { variant: 'error' });
        } finally {
          setSending(null);
        }
      },
      (errors) => {
        enqueueSnackbar(errors.message?.message ?? messages.support.messageRequired, { variant: 'error' });
      },
    );

  const busy = sending !== null;
  return (
    <Box component="form" noValidate onSubmit={(e) => e.preventDefault()}>
      <Stack spacing={2}>
        <Controller
          name="message"
          control={control}
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              inputRef={field.ref}
              label={messages.support.messageLabel}
              multiline
              minRows={4}
              fullWidth
              required
              disabled={!canCreate || busy}
              error={!!fieldState.error}
              helperText={fieldState.error?.message}
            />
          )}
        />
        <Box>
          <input
            ref={fileInput}
            type="file"
            hidden
            accept={ATTACHMENT_ACCEPT}
            aria-label={messages.support.attachmentLabel}
            onChange={chooseFile}
          />
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
            <Button
              variant="outlined"
              startIcon={<AttachFileIcon />}
              onClick={() => fileInput.current?.click()}
              disabled={!canCreate || busy}
            >
              {messages.support.attachmentLabel}
            </Button>
            {file && (
              <>
                <Typography variant="body2">{file.name}</Typography>
                <IconButton
                  size="small"
                  aria-label={`Remove ${file.name}`}
                  onClick={() => setFile(null)}
                  disabled={busy}
                >
                  <CloseIcon fontSize="small" />
                </IconButton>
              </>
            )}
          </Stack>
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5 }}>
            {messages.support.fileHint} (up to 5 MB)
          </Typography>
        </Box>
        {canCreate && (
          <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Button variant="contained" disabled={busy} onClick={send('feedback')}>
              {messages.support.submitFeedback}
            </Button>
            <Button variant="outlined" disabled={busy} onClick={send('callback')}>
              {messages.support.requestCallBack}
            </Button>
          </Stack>
        )}
      </Stack>
    </Box>
  );
}
