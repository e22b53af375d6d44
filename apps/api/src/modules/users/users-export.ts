import type { Readable } from 'node:stream';
import { INTERVIEW_BOT_PRODUCT_NAME, type User } from '@portal/shared';
import { streamSpreadsheet, type SheetColumn, type SpreadsheetFormat } from '../../lib/spreadsheet.js';

const inviteLabel = (u: User) =>
  u.inviteStatus === 'accepted' ? 'Accepted' : u.inviteStatus === 'pending' ? 'Pending' : 'Expired';

/** The Admin Users table's columns plus the details panel's, one row per user. */
export const USER_EXPORT_COLUMNS: readonly SheetColumn<User>[] = [
  { header: 'ID', width: 38, value: (u) => u.id },
  { header: 'Username', width: 24, value: (u) => u.username },
  { header: 'Full Name', width: 24, value: (u) => u.fullName },
  { header: 'Email', width: 32, value: (u) => u.email },
  { header: 'Mobile Number', width: 16, value: (u) => u.mobileNo },
  { header: 'Client', width: 28, value: (u) => u.client },
  { header: 'Organization ID', width: 38, value: (u) => u.organizationId },
  { header: 'Role', width: 16, value: (u) => u.role.name },
  { header: 'Products', width: 20, value: () => INTERVIEW_BOT_PRODUCT_NAME },
  { header: 'Status', width: 10, value: (u) => (u.isActive ? 'Active' : 'Inactive') },
  { header: 'Invite', width: 10, value: inviteLabel },
  { header: 'Created At', width: 20, value: (u) => new Date(u.createdAt) },
  { header: 'Updated At', width: 20, value: (u) => new Date(u.updatedAt) },
];

async function* eachUser(batches: AsyncIterable<User[]>) {
  for await (const batch of batches) yield* batch;
}

/** Streams the users as .xlsx or .csv; formula-like text cells are neutralised by the writer. */
export function usersSpreadsheet(format: SpreadsheetFormat, batches: AsyncIterable<User[]>): Readable {
  return streamSpreadsheet({
    format,
    sheetName: 'Users',
    columns: USER_EXPORT_COLUMNS,
    rows: eachUser(batches),
  });
}
