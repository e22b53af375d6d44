import type { ImportKind } from '@portal/shared';
import type { ImportKindHandler } from './import-kind.js';
import { organizationImport } from './organization-import.js';
import { positionImport } from './position-import.js';
import { userImport } from './user-import.js';

/** Every kind of import, by name; the routes, the job and the sheets look a kind up here. */
export const IMPORT_HANDLERS: Record<ImportKind, ImportKindHandler<never>> = {
  users: userImport as ImportKindHandler<never>,
  organizations: organizationImport as ImportKindHandler<never>,
  positions: positionImport as ImportKindHandler<never>,
};
