import { useState } from 'react';
import { Box, Paper, Tab, Tabs } from '@mui/material';
import {
  ADMIN_USER_PAGE_SIZES,
  DEFAULT_PAGE_SIZE,
  formatCount,
  formatDate,
  formatDateTime,
  formatRupees,
  REQUIREMENTS,
  RENEWAL_VIEWS,
  type RenewalListItem,
  type RenewalView,
} from '@portal/shared';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { ErrorText } from '../../../components/error-text';
import { PageHeader } from '../../../components/page-header';
import { RowActionsMenu } from '../../../components/row-actions-menu';
import { extractErrorMessage } from '../../../lib/error-message';
import { usePermissions } from '../../../lib/session/use-permission';
import { useRenewals } from '../api/get-renewals';
import { RecordRenewalPaymentDialog } from '../components/record-renewal-payment-dialog';
import { RenewalStatusChip } from '../components/renewal-status-chip';
import { labels, renewalViewLabels } from '../labels';
import { RECORDABLE_STATUSES, renewalPeriod } from '../utils/renewal';

/** What happens next: the debit's next try, else when its notice went out. */
function nextStep(r: RenewalListItem): string {
  if (r.nextAttemptAt) return labels.nextAttempt(formatDateTime(r.nextAttemptAt));
  if (r.noticeSentAt) return labels.noticeSentOn(formatDate(r.noticeSentAt));
  return labels.none;
}

const COLUMNS: DataColumn<RenewalListItem>[] = [
  {
    label: labels.organization,
    card: 'title',
    render: (r) => r.organizationName,
    cellSx: { overflowWrap: 'anywhere', minWidth: 140 },
  },
  { label: labels.renewalPeriod, card: 'subtitle', render: renewalPeriod, cellSx: { minWidth: 120 } },
  { label: labels.amount, align: 'right', render: (r) => formatRupees(r.amountPaise) },
  { label: labels.status, render: (r) => <RenewalStatusChip status={r.status} /> },
  { label: labels.nextStep, render: nextStep, cellSx: { minWidth: 120 } },
  { label: labels.attempts, align: 'right', render: (r) => formatCount(r.attempts) },
  {
    label: labels.lastError,
    render: (r) => (r.lastError ? <ErrorText text={r.lastError} /> : labels.none),
    cellSx: { minWidth: 140, maxWidth: 240 },
  },
];

const tabId = (view: RenewalView) => `renewals-tab-${view}`;
const PANEL_ID = 'renewals-panel';

/**
 * {prefix}/renewals: every organization's monthly renewals by what needs doing (due within a week,
 * waiting for the customer, declined, lapsed, or all), paged by the server; a payment received for
 * one waiting for its money is recorded here. The super administrator's alone (the route declares it).
 */
export function RenewalsPage() {
  const canRecord = usePermissions().meets(REQUIREMENTS.recordPlatformBilling);
  const [view, setView] = useState<RenewalView>('due');
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [recording, setRecording] = useState<RenewalListItem | null>(null);
  const list = useRenewals({ view, page: page + 1, pageSize });

  return (
    <Box>
      <PageHeader title={labels.renewalsTitle} subtitle={labels.renewalsSubtitle} />
      <Tabs
        value={view}
        onChange={(_event, next: RenewalView) => {
          setView(next);
          setPage(0);
        }}
        aria-label={labels.renewalsView}
        variant="scrollable"
        scrollButtons="auto"
        allowScrollButtonsMobile
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        {RENEWAL_VIEWS.map((v) => (
          <Tab key={v} value={v} label={renewalViewLabels[v]} id={tabId(v)} aria-controls={PANEL_ID} />
        ))}
      </Tabs>
      <Paper variant="outlined" role="tabpanel" id={PANEL_ID} aria-labelledby={tabId(view)}>
        <DataTable
          label={renewalViewLabels[view]}
          columns={COLUMNS}
          rows={list.data?.items ?? []}
          rowKey={(r) => r.id}
          loading={list.isPending}
          error={list.isError ? extractErrorMessage(list.error, labels.renewalsLoadFailed) : undefined}
          emptyText={labels.renewalsEmpty}
          dense
          pagination={{
            count: list.data?.meta.total ?? 0,
            page,
            pageSize,
            onPageChange: setPage,
            pageSizes: ADMIN_USER_PAGE_SIZES,
            onPageSizeChange: (size) => {
              setPageSize(size);
              setPage(0);
            },
          }}
          actions={
            canRecord
              ? {
                  label: labels.actions,
                  labelHidden: true,
                  align: 'right',
                  render: (r) => (
                    <RowActionsMenu
                      label={labels.renewalActionsFor(`${r.organizationName}, ${renewalPeriod(r)}`)}
                      actions={[
                        RECORDABLE_STATUSES.includes(r.status) && {
                          label: labels.recordPayment,
                          run: () => setRecording(r),
                        },
                      ]}
                    />
                  ),
                }
              : undefined
          }
        />
      </Paper>
      {recording && (
        <RecordRenewalPaymentDialog
          key={recording.id}
          renewal={recording}
          onClose={() => setRecording(null)}
        />
      )}
    </Box>
  );
}
