import { Chip, Stack } from '@mui/material';
import { messages, type User } from '@portal/shared';

/** Active/Inactive, plus the invite state while the user has not set a password. */
export function UserStatus({ user }: { user: Pick<User, 'isActive' | 'inviteStatus'> }) {
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      <Chip
        size="small"
        label={user.isActive ? messages.users.active : messages.users.inactive}
        color={user.isActive ? 'success' : 'default'}
        variant={user.isActive ? 'filled' : 'outlined'}
      />
      {user.inviteStatus === 'pending' && (
        <Chip size="small" label={messages.users.invitePending} color="info" variant="outlined" />
      )}
      {user.inviteStatus === 'expired' && (
        <Chip size="small" label={messages.users.inviteExpired} color="warning" variant="outlined" />
      )}
    </Stack>
  );
}

export function inviteStatusLabel(status: User['inviteStatus']): string {
  return status === 'accepted'
    ? messages.users.inviteAccepted
    : status === 'pending'
      ? messages.users.invitePending
      : messages.users.inviteExpired;
}
