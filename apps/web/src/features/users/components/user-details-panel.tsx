import type { ReactNode } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import LogoutIcon from '@mui/icons-material/Logout';
import { formatDateTime, messages, type User } from '@portal/shared';
import { plainId, ShortId } from '../../../components/short-id';
import { SidePanel } from '../../../components/side-panel';
import { labels } from '../labels';
import { inviteStatusLabel, UserStatus } from './user-status';

export interface UserDetailsPanelProps {
  user: User | null;
  canEdit: boolean;
  /** The platform operator (REQUIREMENTS.endUserSessions), for anyone but themselves. */
  canEndSessions: boolean;
  onClose(): void;
  onEdit(user: User): void;
  onEndSessions(user: User): void;
}

/** 'Admin User Details': the record behind a row of Admin Users. */
export function UserDetailsPanel({
  user,
  canEdit,
  canEndSessions,
  onClose,
  onEdit,
  onEndSessions,
}: UserDetailsPanelProps) {
  const fields: [string, ReactNode][] = user
    ? [
        // The record's own view shows ids whole, with the copy button.
        [messages.users.detailId, <ShortId id={user.id} format={plainId} keep={Infinity} />],
        [messages.users.usernameLabel, user.username],
        [messages.users.emailLabel, user.email],
        [
          messages.users.detailOrganizationId,
          <ShortId id={user.organizationId} format={plainId} keep={Infinity} />,
        ],
        [messages.users.detailMobile, user.mobileNo ?? '—'],
        [messages.users.detailClient, user.client ?? '—'],
        [messages.users.detailRole, user.role.name],
        [messages.users.detailCreatedAt, formatDateTime(user.createdAt)],
        [messages.users.detailUpdatedAt, formatDateTime(user.updatedAt)],
        [messages.users.detailInvite, inviteStatusLabel(user.inviteStatus)],
      ]
    : [];
  const actions = user && (canEdit || canEndSessions) && (
    <>
      {canEdit && (
        <Button variant="contained" startIcon={<EditIcon />} onClick={() => onEdit(user)}>
          {messages.users.editAdmin}
        </Button>
      )}
      {canEndSessions && (
        <Button
          variant="outlined"
          color="error"
          startIcon={<LogoutIcon />}
          onClick={() => onEndSessions(user)}
        >
          {labels.endSessions}
        </Button>
      )}
    </>
  );
  return (
    // The actions sit in the panel's footer, in view whatever the height of the screen.
    <SidePanel
      open={!!user}
      title={messages.users.detailsTitle}
      onClose={onClose}
      footer={actions || undefined}
    >
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
        </Stack>
      )}
    </SidePanel>
  );
}
