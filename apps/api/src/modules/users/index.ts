export { usersRoutes } from './users.routes.js';
export { createUserIn, registerCompany, type CreatedUser } from './invites.service.js';
export { replaceOwnProfileImage, updateOwnProfile, type OwnProfileChanges } from './own-profile.service.js';
export {
  createImportedUsers,
  IMPORTED_USERS_PER_BATCH,
  type ImportedUserOutcome,
  type ImportedUserRow,
} from './import-users-batch.service.js';
export { updateUser } from './users.service.js';
export { boundImportConflicts } from './identity-conflicts.js';
export { importableRoles, usersHoldingIdentities, type ImportableRole } from './import-lookups.service.js';
