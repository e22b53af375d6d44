export { filesRoutes } from './files.routes.js';
export { deleteStoredFile, storeFile, withStoredFile, type FileToStore } from './files.service.js';

export { pruneUnreferencedFiles } from './files.service.js';
