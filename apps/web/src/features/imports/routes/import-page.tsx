import { Box, Tab, Tabs } from '@mui/material';
import { useSearchParams } from 'react-router';
import type { ImportKind } from '@portal/shared';
import { PageHeader } from '../../../components/page-header';
import { usePermissions } from '../../../lib/session/use-permission';
import { useRoutePrefix } from '../../../lib/use-route-prefix';
import { ImportHistory } from '../components/import-history';
import { NewImport } from '../components/new-import';
import { labels } from '../labels';
import { RECORDS_PAGE } from '../utils/import-kind';

/** The tab the address names: `?tab=history` is the history, anything else a new import. */
const HISTORY = 'history';

/**
 * {prefix}/imports/:kind (users, positions, organizations): a new import, step by step, and the
 * kind's import history. The route table guards it with the kind's IMPORT.
 */
export function ImportPage({ kind }: { kind: ImportKind }) {
  const prefix = useRoutePrefix();
  const { mayOpen } = usePermissions();
  const [search, setSearch] = useSearchParams();
  const tab = search.get('tab') === HISTORY ? HISTORY : 'new';
  const records = RECORDS_PAGE[kind];
  return (
    <Box>
      <PageHeader
        title={labels.title(kind)}
        subtitle={labels.subtitle(kind)}
        backTo={mayOpen(records) ? `${prefix}/${records}` : undefined}
        backLabel={labels.backToRecords(kind)}
      />
      <Tabs
        value={tab}
        onChange={(_event, next: string) => setSearch(next === HISTORY ? { tab: HISTORY } : {})}
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab value="new" label={labels.newImport} />
        <Tab value={HISTORY} label={labels.history} />
      </Tabs>
      {tab === HISTORY ? <ImportHistory kind={kind} /> : <NewImport kind={kind} />}
    </Box>
  );
}
