import { Chip, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import { messages, roleScopeLabels, type Role } from '@portal/shared';
import { SidePanel } from '../../../components/side-panel';
import { labels } from '../labels';
import { TwoFactorRequiredChip } from './two-factor-required-chip';

export interface RolePermissionsPanelProps {
  role: Role | null;
  onClose: () => void;
}

/** The View Permissions side panel of the roles list: each feature with the scopes the role grants. */
export function RolePermissionsPanel({ role, onClose }: RolePermissionsPanelProps) {
  const entries = role?.permissions.filter((p) => p.permissionScopes.length > 0) ?? [];
  return (
    <SidePanel
      open={role !== null}
      title={role ? `${role.name} - ${messages.roles.permissionsColumn}` : ''}
      onClose={onClose}
    >
      {role?.requireTwoFactor && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }}>
          <TwoFactorRequiredChip />
          <Typography variant="body2" color="text.secondary">
            {labels.twoFactorRequiredLong}
          </Typography>
        </Stack>
      )}
      {entries.length === 0 ? (
        <Typography color="text.secondary">{messages.roles.noPermissions}</Typography>
      ) : (
        <List disablePadding aria-label={messages.roles.permissionsColumn}>
          {entries.map((entry) => (
            <ListItem key={entry.id} disableGutters divider>
              <ListItemText
                primary={entry.featureName || messages.roles.unknownFeature}
                secondary={
                  <Stack
                    component="span"
                    direction="row"
                    spacing={0.5}
                    useFlexGap
                    sx={{ flexWrap: 'wrap', mt: 0.5 }}
                  >
                    {entry.permissionScopes.map((scope) => (
                      <Chip key={scope} component="span" size="small" label={roleScopeLabels[scope]} />
                    ))}
                  </Stack>
                }
                slotProps={{ secondary: { component: 'span' } }}
              />
            </ListItem>
          ))}
        </List>
      )}
    </SidePanel>
  );
}
