import { messages, SYSTEM_ROLES, type Role } from '@portal/shared';
import { labels } from '../labels';
import { RowActionsMenu } from '../../../components/row-actions-menu';

export interface RoleActionsMenuProps {
  role: Role;
  canEdit: boolean;
  canDelete: boolean;
  /** The platform operator (REQUIREMENTS.requireTwoFactor): require or stop requiring a second factor. */
  canRequireTwoFactor: boolean;
  onView: (role: Role) => void;
  onEdit: (role: Role) => void;
  onDelete: (role: Role) => void;
  onRequireTwoFactor: (role: Role, required: boolean) => void;
}

/**
 * View for every role; Edit and Delete only for custom roles, and only with the scope to use them;
 * the two-factor policy for any role but the super administrator's (always required).
 */
export function RoleActionsMenu({
  role,
  canEdit,
  canDelete,
  canRequireTwoFactor,
  onView,
  onEdit,
  onDelete,
  onRequireTwoFactor,
}: RoleActionsMenuProps) {
  const policy = canRequireTwoFactor && !(role.isSystem && role.name === SYSTEM_ROLES.superAdmin);
  return (
    <RowActionsMenu
      label={`${messages.roles.actionColumn} for ${role.name}`}
      actions={[
        { label: messages.roles.view, run: () => onView(role) },
        !role.isSystem && canEdit && { label: messages.roles.edit, run: () => onEdit(role) },
        !role.isSystem &&
          canDelete && { label: messages.roles.delete, run: () => onDelete(role), danger: true },
        policy && {
          label: role.requireTwoFactor ? labels.stopRequiringTwoFactor : labels.requireTwoFactor,
          run: () => onRequireTwoFactor(role, !role.requireTwoFactor),
        },
      ]}
    />
  );
}
