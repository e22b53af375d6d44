import { messages, type Role } from '@portal/shared';
import { RowActionsMenu } from '../../../components/row-actions-menu';

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
  return (
    <RowActionsMenu
      label={`${messages.roles.actionColumn} for ${role.name}`}
      actions={[
        { label: messages.roles.view, run: () => onView(role) },
        !role.isSystem && canEdit && { label: messages.roles.edit, run: () => onEdit(role) },
        !role.isSystem &&
          canDelete && { label: messages.roles.delete, run: () => onDelete(role), danger: true },
      ]}
    />
  );
}
