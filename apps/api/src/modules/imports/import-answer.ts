import {
  IMPORT_ERRORS_SHOWN,
  type ImportCellError,
  type ImportDetail,
  type ImportSummary,
} from '@portal/shared';
import type { Db } from '../../db/client.js';
import { countPendingRows, errorRowsAfter, type ImportRecord, type ImportRowRecord } from './imports.repo.js';

/** A row's errors as listed: the dry run's, or the commit's refusal of it (column "Row"). */
export function rowErrors(row: ImportRowRecord): { column: string; message: string }[] {
  if (row.outcome === 'error') return row.errors;
  return row.result === 'failed' ? [{ column: 'Row', message: row.resultError ?? '' }] : [];
}

function summaryOf(record: ImportRecord, pending: number): ImportSummary {
  const total = record.toCreate + record.toUpdate;
  const committed = record.status !== 'dry_run';
  return {
    id: record.id,
    kind: record.kind,
    organizationId: record.organizationId,
    fileName: record.fileName,
    onExisting: record.onExisting,
    matchBy: record.matchBy,
    mapping: record.mapping,
    status: record.status,
    createdBy: record.createdBy,
    createdAt: record.createdAt.toISOString(),
    finishedAt: record.finishedAt?.toISOString() ?? null,
    counts: {
      total: record.totalRows,
      toCreate: record.toCreate,
      toUpdate: record.toUpdate,
      unchanged: record.unchanged,
      errors: record.errorRows,
    },
    progress: { done: committed ? total - pending : 0, total },
    results: {
      created: record.createdCount,
      updated: record.updatedCount,
      unchanged: record.unchanged,
      failed: record.failedCount,
    },
    failure: record.failure,
  };
}

/** Imports as their history lists them, with each one's progress (one statement for the page). */
export async function importSummaries(db: Db, records: readonly ImportRecord[]): Promise<ImportSummary[]> {
  const running = records.filter((r) => r.status !== 'dry_run' && r.status !== 'done').map((r) => r.id);
  const pending = await countPendingRows(db, running);
  return records.map((r) => summaryOf(r, pending.get(r.id) ?? 0));
}

/** An import with its first IMPORT_ERRORS_SHOWN errors, in file order. */
export async function importDetail(db: Db, record: ImportRecord): Promise<ImportDetail> {
  const [summary] = await importSummaries(db, [record]);
  const errors: ImportCellError[] = [];
  const rows = await errorRowsAfter(db, record.id, 0, IMPORT_ERRORS_SHOWN + 1);
  for (const row of rows) {
    for (const error of rowErrors(row)) errors.push({ row: row.rowNumber, ...error });
  }
  return {
    ...summary!,
    errors: errors.slice(0, IMPORT_ERRORS_SHOWN),
    errorsTruncated: errors.length > IMPORT_ERRORS_SHOWN,
  };
}
