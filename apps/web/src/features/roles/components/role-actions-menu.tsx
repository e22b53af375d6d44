import { useState } from 'react';
import { IconButton, Menu, MenuItem } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import { messages, type Role } from '@portal/shared';

export interface RoleActionsMenuProps {
  role: Role;
  canEdit: boolean;
  canDelete: boolean;
  onView: (role: Role) => void;
  onEdit: (role: Role) => void;
  onDelete: (role: Role) => void;
}

/** View for every role; Edit and Delete only for custom roles, and only with the scope to use them. */
export function RoleActionsMenu({
  role,
  canEdit,
  canDelete,
  onView,
  onEdit,
  onDelete,
}: RoleActionsMenuProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const pick = (action: (r: Role) => void) => () => {
    close();
    action(role);
  };
  const items = [
    <MenuItem key="view" onClick={pick(onView)}>
      {messages.roles.view}
    </MenuItem>,
  ];
  if (!role.isSystem && canEdit) {
    items.push(
      <MenuItem key="edit" onClick={pick(onEdit)}>
        {messages.roles.edit}
      </MenuItem>,
    );
  }
  if (!role.isSystem && canDelete) {
    items.push(
      <MenuItem key="delete" onClick={pick(onDelete)} sx={{ color: 'error.main' }}>
        {messages.roles.delete}
      </MenuItem>,
    );
  }
  return (
    <>
      <IconButton
        aria-label={`${messages.roles.actionColumn} for ${role.name}`}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <MoreVertIcon />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={close}>
        {items}
      </Menu>
    </>
  );
}
