import EditIcon from '@mui/icons-material/Edit';
import VisibilityIcon from '@mui/icons-material/Visibility';
import BlockIcon from '@mui/icons-material/Block';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import SendIcon from '@mui/icons-material/Send';
import LogoutIcon from '@mui/icons-material/Logout';
import PhonelinkEraseIcon from '@mui/icons-material/PhonelinkErase';
import { messages, type User } from '@portal/shared';
import { RowActionsMenu } from '../../../components/row-actions-menu';
import { labels } from '../labels';

export interface UserActionsMenuProps {
  user: User;
  /** User Management UPDATE, and the user's role no wider than the actor's (the server's rule). */
  canManage: boolean;
  /** canManage, and the edit form is a page the actor may open. */
  canEdit: boolean;
  /** Users cannot deactivate themselves. */
  isSelf: boolean;
  /** The platform operator (REQUIREMENTS.endUserSessions), for anyone but themselves no wider than them. */
  canEndSessions: boolean;
  /** The platform operator (REQUIREMENTS.resetUserTwoFactor), for a user with a factor, as above. */
  canResetTwoFactor: boolean;
  onEdit(user: User): void;
  onView(user: User): void;
  onToggleActive(user: User): void;
  onResendInvite(user: User): void;
  onEndSessions(user: User): void;
  onResetTwoFactor(user: User): void;
}

/**
 * Edit, View, Activate or Deactivate, Resend invite, End all sessions, Reset two-factor sign-in: only
 * the actions the user may take.
 */
export function UserActionsMenu({
  user,
  canManage,
  canEdit,
  isSelf,
  canEndSessions,
  canResetTwoFactor,
  onEdit,
  onView,
  onToggleActive,
  onResendInvite,
  onEndSessions,
  onResetTwoFactor,
}: UserActionsMenuProps) {
  return (
    <RowActionsMenu
      label={`Actions for ${user.username}`}
      actions={[
        canEdit && {
          label: messages.users.edit,
          icon: <EditIcon fontSize="small" />,
          run: () => onEdit(user),
        },
        { label: messages.users.view, icon: <VisibilityIcon fontSize="small" />, run: () => onView(user) },
        canManage &&
          !(isSelf && user.isActive) && {
            label: user.isActive ? messages.users.deactivate : messages.users.activate,
            icon: user.isActive ? <BlockIcon fontSize="small" /> : <CheckCircleIcon fontSize="small" />,
            run: () => onToggleActive(user),
          },
        canManage &&
          user.inviteStatus !== 'accepted' && {
            label: messages.users.resendInvite,
            icon: <SendIcon fontSize="small" />,
            run: () => onResendInvite(user),
          },
        canEndSessions && {
          label: labels.endSessions,
          icon: <LogoutIcon fontSize="small" />,
          run: () => onEndSessions(user),
        },
        canResetTwoFactor && {
          label: labels.resetTwoFactor,
          icon: <PhonelinkEraseIcon fontSize="small" />,
          run: () => onResetTwoFactor(user),
        },
      ]}
    />
  );
}
