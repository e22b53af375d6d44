import { useId, useState, type ReactNode } from 'react';
import { IconButton, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';

export interface RowAction {
  label: string;
  run: () => void;
  icon?: ReactNode;
  /** Destructive (Delete): shown in the error colour. */
  danger?: boolean;
}

export interface RowActionsMenuProps {
  /** The button's accessible name, e.g. "Actions for <row>". */
  label: string;
  /** An action the user may not take is left out (or passed as `false`), so it is not shown. */
  actions: readonly (RowAction | false | undefined)[];
}

/** The ⋮ button of a table row and its menu of actions; nothing when no action is left. */
export function RowActionsMenu({ label, actions }: RowActionsMenuProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const shown = actions.filter((action): action is RowAction => !!action);
  if (shown.length === 0) return null;
  return (
    <>
      <IconButton
        aria-label={label}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        size="small"
      >
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {shown.map((action) => (
          <MenuItem
            key={action.label}
            onClick={() => {
              setAnchor(null);
              action.run();
            }}
            sx={action.danger ? { color: 'error.main' } : undefined}
          >
            {action.icon && <ListItemIcon>{action.icon}</ListItemIcon>}
            <ListItemText>{action.label}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
