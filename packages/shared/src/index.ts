export * from './constants.js';
export * from './messages.js';
export * from './money.js';
export * from './password.js';
export * from './permissions.js';
export * from './schemas/auth.js';
export * from './schemas/common.js';
export * from './schemas/users.js';
