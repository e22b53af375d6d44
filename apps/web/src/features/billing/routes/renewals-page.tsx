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
import { SidePanel } from '../../../components/side-panel';
import { extractErrorMessage } from '../../../lib/error-message';
import { usePermissions } from '../../../lib/session/use-permission';
import { useRenewals } from '../api/get-renewals';
import { EditPlanDialog } from '../components/edit-plan-dialog';
import { RecordRenewalPaymentDialog } from '../components/record-renewal-payment-dialog';
import { RenewalStatusChip } from '../components/renewal-status-chip';
import { SubscriptionTimeline } from '../components/subscription-timeline';
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
/** A timeline's page in the side panel. */
const TIMELINE_PAGE_SIZE = 20;

/** The organization a row's action is about. */
interface Organization {
  id: string;
  name: string;
}
const organizationOf = (r: RenewalListItem): Organization => ({
  id: r.organizationId,
  name: r.organizationName,
});

/**
 * {prefix}/renewals: every organization's monthly renewals by what needs doing (due within a week,
 * waiting for the customer, declined, lapsed, or all), paged by the server; a payment received for
 * one waiting for its money is recorded here, the organization's plan edited (from its next
 * renewal) and its subscription timeline read. The super administrator's alone (the route declares
 * it).
 */
export function RenewalsPage() {
  const permissions = usePermissions();
  // Recording a payment and the price, GST and rollover cap are the platform operator's.
  const canRecord = permissions.meets(REQUIREMENTS.recordPlatformBilling);
  const canReadTimeline = permissions.can('dashboard', 'READ');
  const [view, setView] = useState<RenewalView>('due');
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [recording, setRecording] = useState<RenewalListItem | null>(null);
  const [editing, setEditing] = useState<Organization | null>(null);
  // Kept while the side panel slides away, so its title and list do not empty as it goes.
  const [timelineOf, setTimelineOf] = useState<Organization | null>(null);
  const [timelineOpen, setTimelineOpen] = useState(false);
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
            canRecord || canReadTimeline
              ? {
                  label: labels.actions,
                  labelHidden: true,
                  align: 'right',
                  render: (r) => (
                    <RowActionsMenu
                      label={labels.renewalActionsFor(`${r.organizationName}, ${renewalPeriod(r)}`)}
                      actions={[
                        canRecord &&
                          RECORDABLE_STATUSES.includes(r.status) && {
                            label: labels.recordPayment,
                            run: () => setRecording(r),
                          },
                        canRecord && { label: labels.editPlan, run: () => setEditing(organizationOf(r)) },
                        canReadTimeline && {
                          label: labels.timeline,
                          run: () => {
                            setTimelineOf(organizationOf(r));
                            setTimelineOpen(true);
                          },
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
      {editing && (
        <EditPlanDialog
          key={editing.id}
          organizationId={editing.id}
          organizationName={editing.name}
          onClose={() => setEditing(null)}
        />
      )}
      <SidePanel
        open={timelineOpen}
        title={timelineOf ? labels.timelineTitle(timelineOf.name) : labels.timeline}
        onClose={() => setTimelineOpen(false)}
      >
        {timelineOf && (
          <SubscriptionTimeline
            key={timelineOf.id}
            organizationId={timelineOf.id}
            pageSize={TIMELINE_PAGE_SIZE}
            label={labels.timelineTitle(timelineOf.name)}
            paged
          />
        )}
      </SidePanel>
    </Box>
  );
}
