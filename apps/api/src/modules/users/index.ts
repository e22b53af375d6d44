export { usersRoutes } from './users.routes.js';
export { createUserIn, registerCompany, type CreatedUser } from './invites.service.js';
export { replaceOwnProfileImage, updateOwnProfile, type OwnProfileChanges } from './own-profile.service.js';
