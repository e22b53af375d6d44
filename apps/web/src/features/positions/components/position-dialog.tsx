import { useEffect } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { messages, positionFormSchema, type Position, type PositionForm } from '@portal/shared';

export interface PositionDialogProps {
  open: boolean;
  /** The position being edited; null creates a new one. */
  position: Position | null;
  busy: boolean;
  onSubmit: (values: PositionForm) => void;
  onClose: () => void;
  /** Field errors from the server, by field name. */
  serverErrors?: Partial<Record<keyof PositionForm, string>>;
}

const empty: PositionForm = { title: '', department: '', location: '', openings: 1 };

export function PositionDialog({
  open,
  position,
  busy,
  onSubmit,
  onClose,
  serverErrors,
}: PositionDialogProps) {
  const { register, handleSubmit, reset, setError, formState } = useForm<PositionForm>({
    resolver: zodResolver(positionFormSchema),
    defaultValues: empty,
  });

  useEffect(() => {
    if (open) {
      reset(
        position
          ? {
              title: position.title,
              department: position.department,
              location: position.location,
              openings: position.openings,
            }
          : empty,
      );
    }
  }, [open, position, reset]);

  useEffect(() => {
    for (const [field, message] of Object.entries(serverErrors ?? {})) {
      if (message) setError(field as keyof PositionForm, { message });
    }
  }, [serverErrors, setError]);

  const errors = formState.errors;
  const title = position ? messages.positions.editPosition : messages.positions.addPosition;
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="position-dialog-title"
    >
      <form noValidate onSubmit={handleSubmit(onSubmit)}>
        <DialogTitle id="position-dialog-title">{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ mt: 1 }}>
            <TextField
              label="Title"
              required
              autoFocus
              {...register('title')}
              error={!!errors.title}
              helperText={errors.title?.message}
            />
            <TextField
              label="Department"
              required
              {...register('department')}
              error={!!errors.department}
              helperText={errors.department?.message}
            />
            <TextField
              label="Location"
              required
              {...register('location')}
              error={!!errors.location}
              helperText={errors.location?.message}
            />
            <TextField
              label="Openings"
              type="number"
              required
              slotProps={{ htmlInput: { min: 1, step: 1 } }}
              {...register('openings', { valueAsNumber: true })}
              error={!!errors.openings}
              helperText={errors.openings?.message}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {position ? 'Save Changes' : messages.positions.addPosition}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
