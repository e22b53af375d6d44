export { importsRoutes } from './imports.routes.js';
export { importCommitJob } from './import-commit.service.js';
