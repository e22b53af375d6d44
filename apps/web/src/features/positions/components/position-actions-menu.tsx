import type { Position } from '@portal/shared';
import { RowActionsMenu } from '../../../components/row-actions-menu';

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
  return (
    <RowActionsMenu
      label={`Actions for ${position.title}`}
      actions={[
        onEdit && { label: 'Edit', run: () => onEdit(position) },
        onClose && position.status === 'Open' && { label: 'Close', run: () => onClose(position) },
        onReopen && position.status === 'Closed' && { label: 'Reopen', run: () => onReopen(position) },
      ]}
    />
  );
}
