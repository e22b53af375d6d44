import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { Alert, Avatar, Box, Button, InputAdornment, Stack, TextField, Typography } from '@mui/material';
import PhotoCameraIcon from '@mui/icons-material/PhotoCameraOutlined';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { closeSnackbar, enqueueSnackbar } from '../../../lib/snackbar';
import {
  COUNTRY_CODE,
  MAX_UPLOAD_BYTES,
  messages,
  PROFILE_IMAGE_ACCEPT,
  PROFILE_IMAGE_MIME_TYPES,
  PROFILE_SAVED_MESSAGE_MS,
  profileFormSchema,
  type ProfileFormValues,
  type User,
} from '@portal/shared';
import { avatarInitials } from '../../../components/avatar-initials';
import { extractErrorMessage } from '../../../lib/error-message';
import { useUpdateProfile } from '../api/update-profile';
import { useUploadProfileImage } from '../api/upload-profile-image';
import { hasActiveSubscription } from '../utils/subscription';

/** Why Save is disabled: `Fill in Contact Number to save.` */
function saveHint(missing: readonly string[]): string {
  const names =
    missing.length <= 1 ? missing.join('') : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`;
  return `Fill in ${names} to save.`;
}

/** A quick check before sending; the server judges the file by its content. */
function imageProblem(file: File): string | null {
  if (file.size > MAX_UPLOAD_BYTES) return messages.profile.imageTooLarge;
  if (!(PROFILE_IMAGE_MIME_TYPES as readonly string[]).includes(file.type))
    return messages.profile.imageTypeRejected;
  return null;
}

/** Section 'User Information' of My Profile. The email is shown read-only. */
export function UserInformationSection({ profile }: { profile: User }) {
  const updateProfile = useUpdateProfile();
  const uploadImage = useUploadProfileImage();
  const fileInput = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [savedMessage, setSavedMessage] = useState(false);
  const { control, handleSubmit } = useForm<ProfileFormValues>({
    resolver: zodResolver(profileFormSchema),
    defaultValues: {
      fullName: profile.fullName ?? '',
      email: profile.email,
      mobileNo: profile.mobileNo ?? '',
    },
  });
  const [fullName, email, mobileNo] = useWatch({ control, name: ['fullName', 'email', 'mobileNo'] });
  // Save stays disabled while a required field is empty (docs/product.md); the reason is said beside it.
  const missing = (
    [
      [fullName, messages.profile.fullNameLabel],
      [email, messages.profile.emailLabel],
      [mobileNo, messages.profile.contactLabel],
    ] as const
  )
    .filter(([value]) => !value?.trim())
    .map(([, label]) => label);
  const filled = missing.length === 0;
  const saveHintId = useId();
  const subscribed = hasActiveSubscription(profile);

  useEffect(() => {
    if (!savedMessage) return;
    const timer = setTimeout(() => setSavedMessage(false), PROFILE_SAVED_MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [savedMessage]);

  useEffect(() => {
    if (!preview) return;
    return () => URL.revokeObjectURL(preview);
  }, [preview]);

  const save = handleSubmit(async (values) => {
    if (!subscribed) {
      enqueueSnackbar(messages.profile.subscriptionExpired, { variant: 'error' });
      return;
    }
    setSavedMessage(false);
    const pending = enqueueSnackbar(messages.profile.updating, { variant: 'info', persist: true });
    try {
      await updateProfile.mutateAsync({ fullName: values.fullName, mobileNo: values.mobileNo });
      enqueueSnackbar(messages.profile.updated, { variant: 'success' });
      setSavedMessage(true);
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.fallback.saveProfileInfo), { variant: 'error' });
    } finally {
      closeSnackbar(pending);
    }
  });

  const chooseImage = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!subscribed) {
      enqueueSnackbar(messages.profile.subscriptionExpiredImage, { variant: 'error' });
      return;
    }
    const problem = imageProblem(file);
    if (problem) {
      enqueueSnackbar(problem, { variant: 'error' });
      return;
    }
    setPreview(URL.createObjectURL(file));
    try {
      await uploadImage.mutateAsync(file);
      enqueueSnackbar(messages.profile.imageUpdated, { variant: 'success' });
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.fallback.updateProfile), { variant: 'error' });
    } finally {
      // The stored image (or the previous one, on failure) replaces the local preview.
      setPreview(null);
    }
  };

  const busy = updateProfile.isPending;
  return (
    <Box component="form" noValidate onSubmit={save}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ alignItems: { sm: 'center' }, mb: 3 }}>
        <Avatar
          src={preview ?? profile.profileImage ?? undefined}
          alt={profile.fullName ?? profile.username}
          sx={{ width: 88, height: 88, fontSize: 32 }}
        >
          {avatarInitials(profile)}
        </Avatar>
        <Box>
          <input
            ref={fileInput}
            type="file"
            accept={PROFILE_IMAGE_ACCEPT}
            hidden
            aria-label={messages.profile.uploadImage}
            onChange={chooseImage}
          />
          <Button
            variant="outlined"
            startIcon={<PhotoCameraIcon />}
            onClick={() => fileInput.current?.click()}
            disabled={uploadImage.isPending}
          >
            {messages.profile.uploadImage}
          </Button>
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5 }}>
            PNG, JPEG or WebP, up to 5 MB
          </Typography>
        </Box>
      </Stack>
      <Stack spacing={2.5} sx={{ maxWidth: 560 }}>
        <Controller
          name="fullName"
          control={control}
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              inputRef={field.ref}
              label={messages.profile.fullNameLabel}
              required
              autoComplete="name"
              error={!!fieldState.error}
              helperText={fieldState.error?.message}
            />
          )}
        />
        <Controller
          name="email"
          control={control}
          render={({ field }) => (
            <TextField
              {...field}
              inputRef={field.ref}
              label={messages.profile.emailLabel}
              required
              helperText={messages.profile.emailReadOnly}
              slotProps={{ htmlInput: { readOnly: true } }}
            />
          )}
        />
        <Controller
          name="mobileNo"
          control={control}
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              inputRef={field.ref}
              label={messages.profile.contactLabel}
              required
              autoComplete="tel-national"
              error={!!fieldState.error}
              helperText={fieldState.error?.message}
              slotProps={{
                htmlInput: { inputMode: 'numeric', maxLength: 10 },
                input: { startAdornment: <InputAdornment position="start">{COUNTRY_CODE}</InputAdornment> },
              }}
            />
          )}
        />
        {savedMessage && (
          <Alert severity="success" role="status">
            {messages.profile.infoSaved}
          </Alert>
        )}
        <Stack direction="row" spacing={1.5} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Button
            type="submit"
            variant="contained"
            disabled={!filled || busy}
            aria-describedby={filled ? undefined : saveHintId}
          >
            {busy ? messages.profile.updating : messages.profile.save}
          </Button>
          {!filled && (
            <Typography id={saveHintId} variant="body2" color="text.secondary" data-testid="save-hint">
              {saveHint(missing)}
            </Typography>
          )}
        </Stack>
      </Stack>
    </Box>
  );
}
