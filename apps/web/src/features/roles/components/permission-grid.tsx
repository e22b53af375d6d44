import { Checkbox, Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import { messages, roleScopeLabels, SCOPES, type Feature, type Scope } from '@portal/shared';
import type { ScopeGrid } from '../utils/role-form';
import { FeatureName } from './feature-name';

export interface PermissionGridProps {
  features: readonly Feature[];
  grid: ScopeGrid;
  onToggle: (featureId: string, scope: Scope, on: boolean) => void;
  /** Whether the signed-in user may grant a scope (they hold it). Others cannot be ticked, only unticked. */
  canGrant: (feature: Feature, scope: Scope) => boolean;
  disabled?: boolean;
}

/** The module grid of the role editor: features × View, Create, Update, Delete, Export, Import. */
export function PermissionGrid({ features, grid, onToggle, canGrant, disabled }: PermissionGridProps) {
  return (
    <TableContainer>
      <Table size="small" aria-label={messages.roles.permissionsColumn}>
        <TableHead>
          <TableRow>
            <TableCell>{messages.roles.moduleColumn}</TableCell>
            {SCOPES.map((scope) => (
              <TableCell key={scope} align="center">
                {roleScopeLabels[scope]}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {features.map((feature) => (
            <TableRow key={feature.id}>
              <TableCell>
                <FeatureName feature={feature} />
              </TableCell>
              {SCOPES.map((scope) => {
                const checked = (grid[feature.id] ?? []).includes(scope);
                return (
                  <TableCell key={scope} align="center" padding="checkbox">
                    <Checkbox
                      checked={checked}
                      disabled={disabled || (!checked && !canGrant(feature, scope))}
                      onChange={(event) => onToggle(feature.id, scope, event.target.checked)}
                      slotProps={{ input: { 'aria-label': `${feature.name} ${roleScopeLabels[scope]}` } }}
                    />
                  </TableCell>
                );
              })}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
