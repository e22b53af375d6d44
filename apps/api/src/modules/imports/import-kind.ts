import type { ImportColumn, ImportKind, ImportOnExisting, ImportRowOutcome } from '@portal/shared';
import type { Actor } from '../../core/actor.js';
import { withDb, type Deps } from '../../core/deps.js';
import { AppError } from '../../lib/errors.js';
import type { CellError, ImportRow } from './import-columns.js';
import type { ImportRecord, ImportRowRecord } from './imports.repo.js';

/** The organization rows are imported into. */
export interface TargetOrganization {
  id: string;
  name: string;
  /** The platform's own organization (the super administrator's). */
  isPlatform: boolean;
}

export interface DryRunInput {
  organization: TargetOrganization;
  rows: readonly ImportRow[];
  onExisting: ImportOnExisting;
  /** A column of IMPORT_MATCH_COLUMNS for the kind. */
  matchBy: string;
}

/** What the dry run found a row would do; `recordId` is the existing record it matched. */
export interface CheckedRow {
  outcome: ImportRowOutcome;
  errors: CellError[];
  recordId: string | null;
}

/** What the commit did with a row: `failed` carries the refusal the screen would have given. */
export type RowResult =
  | {
      result: 'created' | 'updated';
      recordId: string | null;
      /** Runs once the batch has committed (business metrics count only what committed). */
      afterCommit?: () => Promise<void>;
    }
  | { result: 'failed'; error: string };

/**
 * One kind of import (users, positions, organizations): its columns, its dry run and its commit. The
 * rest (files, storage, the job, the history, the routes) is the same for every kind.
 */
export interface ImportKindHandler<Context = unknown> {
  kind: ImportKind;
  columns: readonly ImportColumn[];
  /** Other headers people give each column, squashed (lower case, no spaces, underscores or hyphens). */
  aliases: Readonly<Record<string, readonly string[]>>;
  /** Users and positions go into an organization; organizations are made by the platform's importer. */
  intoOrganization: boolean;
  /** The dry run: every row checked with the screens' schemas and messages, and against the database. */
  checkRows(deps: Deps, actor: Actor, input: DryRunInput): Promise<CheckedRow[]>;
  /** Once per commit run, as the importer: what every batch needs. An AppError ends the import failed. */
  prepareCommit(deps: Deps, importer: Actor, record: ImportRecord): Promise<Context>;
  /** One batch in the caller's transaction (`deps.db`): every row's result. */
  commitRows(
    deps: Deps,
    importer: Actor,
    context: Context,
    rows: readonly ImportRowRecord[],
  ): Promise<Map<number, RowResult>>;
  /** The records' name in the activity entry: "users", "positions", "organizations". */
  noun: string;
  /** Rows handed to commitRows at once (default 50): more for a kind that commits a batch set-based. */
  batchRows?: number;
}

/** A refusal of the screens (4xx) is a row's `failed` result; anything else retries the batch. */
export function refusalOf(error: unknown): RowResult {
  if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
  return { result: 'failed', error: error.message };
}

/** Rows committed one by one, each in a savepoint, so one refusal undoes that row alone. */
export async function commitEachRow(
  deps: Deps,
  rows: readonly ImportRowRecord[],
  work: (deps: Deps, row: ImportRowRecord) => Promise<RowResult>,
): Promise<Map<number, RowResult>> {
  const results = new Map<number, RowResult>();
  for (const row of rows) {
    try {
      results.set(
        row.rowNumber,
        await deps.db.transaction((savepoint) => work(withDb(deps, savepoint), row)),
      );
    } catch (error) {
      results.set(row.rowNumber, refusalOf(error));
    }
  }
  return results;
}
