export * from './billing.js';
export * from './identity.js';
export * from './invoicing.js';
export * from './platform.js';
export * from './tenancy.js';
export * from './workspace.js';
export * from './imports.js';
