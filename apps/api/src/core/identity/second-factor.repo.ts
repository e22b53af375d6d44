import { sql } from 'drizzle-orm';
import { SYSTEM_ROLES } from '@portal/shared';
import { roles, userTotp } from '../../db/schema/index.js';

/** Whether a user's role requires a second factor: the super administrator's always does. */
export const twoFactorRequiredSql = sql<boolean>`${roles.requireTwoFactor} or ${roles.name} = ${SYSTEM_ROLES.superAdmin}`;

/** Whether a user has a second factor: a confirmed one (joined from user_totp). */
export const twoFactorEnabledSql = sql<boolean>`${userTotp.confirmedAt} is not null`;
