import { useState } from 'react';
import { IconButton, ListItemText, Menu, MenuItem } from '@mui/material';
import MoreIcon from '@mui/icons-material/MoreVert';
import type { Position } from '@portal/shared';

export interface PositionActions {
  onEdit?: (position: Position) => void;
  onClose?: (position: Position) => void;
  onReopen?: (position: Position) => void;
}

/** Row actions; an action the user may not take is not passed, so it is not shown. */
export function PositionActionsMenu({
  position,
  onEdit,
  onClose,
  onReopen,
}: { position: Position } & PositionActions) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const items = [
    onEdit && { label: 'Edit', run: () => onEdit(position) },
    onClose && position.status === 'Open' && { label: 'Close', run: () => onClose(position) },
    onReopen && position.status === 'Closed' && { label: 'Reopen', run: () => onReopen(position) },
  ].filter((i): i is { label: string; run: () => void } => !!i);
  if (items.length === 0) return null;
  return (
    <>
      <IconButton
        aria-label={`Actions for ${position.title}`}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <MoreIcon />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {items.map((item) => (
          <MenuItem
            key={item.label}
            onClick={() => {
              setAnchor(null);
              item.run();
            }}
          >
            <ListItemText>{item.label}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
