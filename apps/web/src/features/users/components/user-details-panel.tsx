import { Box, Button, Divider, Stack, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import { messages, type User } from '@portal/shared';
import { SidePanel } from '../../../components/side-panel';
import { inviteStatusLabel, UserStatus } from './user-status';

export interface UserDetailsPanelProps {
  user: User | null;
  canUpdate: boolean;
  onClose(): void;
  onEdit(user: User): void;
}

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** 'Admin User Details' (SPEC.md §2): the record behind a row of Admin Users. */
export function UserDetailsPanel({ user, canUpdate, onClose, onEdit }: UserDetailsPanelProps) {
  const fields: [string, string][] = user
    ? [
        [messages.users.detailId, user.id],
        [messages.users.usernameLabel, user.username],
        [messages.users.emailLabel, user.email],
        [messages.users.detailOrganizationId, user.organizationId],
        [messages.users.detailMobile, user.mobileNo ?? '—'],
        [messages.users.detailClient, user.client ?? '—'],
        [messages.users.detailRole, user.role.name],
        [messages.users.detailCreatedAt, formatDate(user.createdAt)],
        [messages.users.detailUpdatedAt, formatDate(user.updatedAt)],
        [messages.users.detailInvite, inviteStatusLabel(user.inviteStatus)],
      ]
    : [];
  return (
    <SidePanel open={!!user} title={messages.users.detailsTitle} onClose={onClose}>
      {user && (
        <Stack spacing={2}>
          <UserStatus user={user} />
          <Box component="dl" sx={{ m: 0 }}>
            {fields.map(([label, value]) => (
              <Box key={label} sx={{ mb: 1.5 }}>
                <Typography component="dt" variant="caption" color="text.secondary">
                  {label}
                </Typography>
                <Typography component="dd" sx={{ m: 0, wordBreak: 'break-all' }}>
                  {value}
                </Typography>
              </Box>
            ))}
          </Box>
          {canUpdate && (
            <>
              <Divider />
              <Button variant="contained" startIcon={<EditIcon />} onClick={() => onEdit(user)}>
                {messages.users.editAdmin}
              </Button>
            </>
          )}
        </Stack>
      )}
    </SidePanel>
  );
}
