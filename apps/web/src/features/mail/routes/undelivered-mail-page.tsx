import { useState } from 'react';
import { Box, Paper } from '@mui/material';
import {
  ADMIN_USER_PAGE_SIZES,
  formatCount,
  formatDateTime,
  MAIL_KIND_LABELS,
  messages,
  type UndeliveredMail,
} from '@portal/shared';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { ListToolbar, SearchField } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { RowActionsMenu } from '../../../components/row-actions-menu';
import { extractErrorMessage } from '../../../lib/error-message';
import { usePagedSearch } from '../../../lib/use-paged-search';
import { useUndeliveredMail } from '../api/get-undelivered-mail';
import { ErrorText } from '../../../components/error-text';
import { ResendMailDialog } from '../components/resend-mail-dialog';
import { labels } from '../labels';

/**
 * `10 Apr 2026, 12:30 am`, broken (if the column is narrow) after the date only: the row's ⋮ stays
 * beside the sidebar at 1280 px.
 */
function DateTime({ value }: { value: string }) {
  const [day, time] = formatDateTime(value).split(', ');
  return (
    <time dateTime={value}>
      <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
        {time ? `${day},` : day}
      </Box>
      {time && (
        <>
          {' '}
          <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
            {time}
          </Box>
        </>
      )}
    </time>
  );
}

const COLUMNS: DataColumn<UndeliveredMail>[] = [
  {
    label: labels.recipient,
    card: 'title',
    render: (m) => m.to,
    cellSx: { overflowWrap: 'anywhere', minWidth: 160 },
  },
  { label: labels.subject, card: 'subtitle', render: (m) => m.subject, cellSx: { minWidth: 160 } },
  { label: labels.kind, render: (m) => MAIL_KIND_LABELS[m.kind] },
  { label: labels.organization, render: (m) => m.organizationName ?? labels.noOrganization },
  { label: labels.attempts, align: 'right', render: (m) => formatCount(m.attempts) },
  {
    label: labels.lastError,
    render: (m) => (m.lastError ? <ErrorText text={m.lastError} /> : labels.noError),
    cellSx: { minWidth: 160, maxWidth: 240 },
  },
  { label: labels.gaveUpAt, render: (m) => <DateTime value={m.gaveUpAt} />, cellSx: { minWidth: 96 } },
];

/**
 * {prefix}/mail: the mail the portal gave up delivering, across every organization, paged by the
 * server; each can be sent again, to its address or a corrected one. The super administrator's alone
 * (the route declares it).
 */
export function UndeliveredMailPage() {
  const { searchInput, setSearchInput, search, page, setPage, pageSize, setPageSize } = usePagedSearch();
  const [resending, setResending] = useState<UndeliveredMail | null>(null);
  const list = useUndeliveredMail({ page: page + 1, pageSize, search: search || undefined });

  return (
    <Box>
      <PageHeader title={messages.mail.title} subtitle={messages.mail.intro} />
      <Paper variant="outlined">
        <ListToolbar>
          <SearchField value={searchInput} onChange={setSearchInput} placeholder={labels.search} />
        </ListToolbar>
        <DataTable
          label={messages.mail.title}
          columns={COLUMNS}
          rows={list.data?.items ?? []}
          rowKey={(m) => m.id}
          loading={list.isPending}
          error={list.isError ? extractErrorMessage(list.error, messages.mail.loadFailed) : undefined}
          emptyText={messages.mail.empty}
          dense
          pagination={{
            count: list.data?.meta.total ?? 0,
            page,
            pageSize,
            onPageChange: setPage,
            pageSizes: ADMIN_USER_PAGE_SIZES,
            onPageSizeChange: setPageSize,
          }}
          actions={{
            label: labels.actions,
            labelHidden: true,
            align: 'right',
            render: (mail) => (
              <RowActionsMenu
                label={labels.actionsFor(mail.to)}
                actions={[{ label: messages.mail.resend, run: () => setResending(mail) }]}
              />
            ),
          }}
        />
      </Paper>
      {resending && <ResendMailDialog mail={resending} onClose={() => setResending(null)} />}
    </Box>
  );
}
