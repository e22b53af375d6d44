import type { Ticket } from '@portal/shared';
import { RowActionsMenu } from '../../../components/row-actions-menu';

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
  return (
    <RowActionsMenu
      label={`Actions for ${ticket.ticketId}`}
      actions={[
        onView && { label: 'View', run: () => onView(ticket) },
        onToggleStatus && {
          label: ticket.status === 'Active' ? 'Deactivate' : 'Activate',
          run: () => onToggleStatus(ticket),
        },
        onDelete && { label: 'Delete', run: () => onDelete(ticket) },
      ]}
    />
  );
}
