import { useState } from 'react';
import { IconButton, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import EditIcon from '@mui/icons-material/Edit';
import VisibilityIcon from '@mui/icons-material/Visibility';
import BlockIcon from '@mui/icons-material/Block';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import SendIcon from '@mui/icons-material/Send';
import { messages, type User } from '@portal/shared';

export interface UserActionsMenuProps {
  user: User;
  canUpdate: boolean;
  /** Users cannot deactivate themselves. */
  isSelf: boolean;
  onEdit(user: User): void;
  onView(user: User): void;
  onToggleActive(user: User): void;
  onResendInvite(user: User): void;
}

/** Edit, View, Activate or Deactivate, Resend invite: only the actions the user may take. */
export function UserActionsMenu({
  user,
  canUpdate,
  isSelf,
  onEdit,
  onView,
  onToggleActive,
  onResendInvite,
}: UserActionsMenuProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const pick = (action: (u: User) => void) => () => {
    close();
    action(user);
  };
  const menuId = `user-actions-${user.id}`;
  return (
    <>
      <IconButton
        aria-label={`Actions for ${user.username}`}
        aria-controls={anchor ? menuId : undefined}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <MoreVertIcon />
      </IconButton>
      <Menu id={menuId} anchorEl={anchor} open={!!anchor} onClose={close}>
        {canUpdate && (
          <MenuItem onClick={pick(onEdit)}>
            <ListItemIcon>
              <EditIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{messages.users.edit}</ListItemText>
          </MenuItem>
        )}
        <MenuItem onClick={pick(onView)}>
          <ListItemIcon>
            <VisibilityIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{messages.users.view}</ListItemText>
        </MenuItem>
        {canUpdate && !(isSelf && user.isActive) && (
          <MenuItem onClick={pick(onToggleActive)}>
            <ListItemIcon>
              {user.isActive ? <BlockIcon fontSize="small" /> : <CheckCircleIcon fontSize="small" />}
            </ListItemIcon>
            <ListItemText>{user.isActive ? messages.users.deactivate : messages.users.activate}</ListItemText>
          </MenuItem>
        )}
        {canUpdate && user.inviteStatus !== 'accepted' && (
          <MenuItem onClick={pick(onResendInvite)}>
            <ListItemIcon>
              <SendIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{messages.users.resendInvite}</ListItemText>
          </MenuItem>
        )}
      </Menu>
    </>
  );
}
