import { messages, POSITION_IMPORT_COLUMNS, POSITION_TEXT_MAX, type Position } from '@portal/shared';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { findOrganization } from '../organizations/index.js';
import {
  createPosition,
  getPosition,
  holdPositionTitles,
  positionsByTitles,
  updatePosition,
} from '../positions/index.js';
import { lookupValues } from './import-columns.js';
import { commitEachRow, type ImportKindHandler } from './import-kind.js';
import { checkPositionRow, parsePositionRow, POSITION_ALIASES } from './position-rows.js';

interface PositionCommitContext {
  organizationId: string;
}

/**
 * Positions of an organization, matched by title without case: each row a position as the Add
 * Position dialog makes it (createPosition), an existing one edited as the Edit dialog does
 * (updatePosition) when asked. Its title stays as it is: the title is what matched it.
 */
export const positionImport: ImportKindHandler<PositionCommitContext> = {
  kind: 'positions',
  columns: POSITION_IMPORT_COLUMNS,
  aliases: POSITION_ALIASES,
  intoOrganization: true,
  noun: 'positions',

  async checkRows(deps, actor, input) {
    const { organization, rows } = input;
    // A title longer than the form allows is its row's error, never a lookup.
    const titles = lookupValues(rows.map((r) => r.values.title ?? '')).filter(
      (t) => t.length <= POSITION_TEXT_MAX,
    );
    const existing = await positionsByTitles(deps, actor, { organizationId: organization.id, titles });
    const byTitle = new Map<string, Position[]>();
    for (const position of existing) {
      const key = position.title.trim().toLowerCase();
      byTitle.set(key, [...(byTitle.get(key) ?? []), position]);
    }
    const ctx = { onExisting: input.onExisting, byTitle, seenTitles: new Map<string, number>() };
    return rows.map((row) => checkPositionRow(row, ctx));
  },

  async prepareCommit(deps, importer, record) {
    const organization = await findOrganization(deps, importer, { id: record.organizationId });
    if (!organization) throw notFound(messages.positions.organizationNotFound);
    return { organizationId: organization.id };
  },

  async commitRows(deps, importer, context, rows) {
    const { organizationId } = context;
    // Two imports of one file committed at once: each looks its titles up, then creates them.
    await holdPositionTitles(deps, importer, { organizationId });
    return commitEachRow(deps, rows, async (rowDeps, row) => {
      const parsed = parsePositionRow(row.values);
      if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message);
      const form = parsed.data;
      if (row.outcome === 'to_create') {
        // Created meanwhile (on the screen, or by another import of the same file): not twice.
        const [taken] = await positionsByTitles(rowDeps, importer, { organizationId, titles: [form.title] });
        if (taken) throw conflict(messages.imports.positionTitleTaken);
        const position = await createPosition(rowDeps, importer, { ...form, organizationId });
        return { result: 'created', recordId: position.id };
      }
      const current = await getPosition(rowDeps, importer, { id: row.recordId! });
      await updatePosition(rowDeps, importer, { id: current.id, body: { ...form, title: current.title } });
      return { result: 'updated', recordId: current.id };
    });
  },
};
