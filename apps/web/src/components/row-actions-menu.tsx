import { useState } from 'react';
import { IconButton, Menu, MenuItem } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';

export interface RowAction {
  label: string;
  run: () => void;
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
  const shown = actions.filter((action): action is RowAction => !!action);
  if (shown.length === 0) return null;
  return (
    <>
      <IconButton
        aria-label={label}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
        size="small"
      >
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {shown.map((action) => (
          <MenuItem
            key={action.label}
            onClick={() => {
              setAnchor(null);
              action.run();
            }}
          >
            {action.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
