import { useState } from 'react';
import { IconButton, Menu, MenuItem } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import type { Ticket } from '@portal/shared';

export interface TicketActions {
  onView?: (ticket: Ticket) => void;
  onToggleStatus?: (ticket: Ticket) => void;
  onDelete?: (ticket: Ticket) => void;
}

/** The row menu: View, Deactivate or Activate, Delete — each only with its permission. */
export function TicketActionsMenu({
  ticket,
  onView,
  onToggleStatus,
  onDelete,
}: TicketActions & { ticket: Ticket }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const items = [
    onView && { label: 'View', run: () => onView(ticket) },
    onToggleStatus && {
      label: ticket.status === 'Active' ? 'Deactivate' : 'Activate',
      run: () => onToggleStatus(ticket),
    },
    onDelete && { label: 'Delete', run: () => onDelete(ticket) },
  ].filter((item): item is { label: string; run: () => void } => !!item);
  if (items.length === 0) return null;
  return (
    <>
      <IconButton
        aria-label={`Actions for ${ticket.ticketId}`}
        aria-haspopup="menu"
        onClick={(e) => setAnchor(e.currentTarget)}
        size="small"
      >
        <MoreVertIcon fontSize="small" />
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
            {item.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
