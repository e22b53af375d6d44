import { useState } from 'react';
import { Box, Button, Paper, Tab, Tabs } from '@mui/material';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { messages, REQUIREMENTS, type Invoice } from '@portal/shared';
import { ListToolbar, SearchField } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { extractErrorMessage } from '../../../lib/error-message';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { usePagedSearch } from '../../../lib/use-paged-search';
import { usePermissions } from '../../../lib/session/use-permission';
import { useExportRegister } from '../api/export-register';
import type { InvoiceFilters } from '../api/get-invoices';
import { CreditNotesTable } from '../components/credit-notes-table';
import { InvoicesTable } from '../components/invoices-table';
import { PeriodFilters } from '../components/period-filters';
import { RefundDialog } from '../components/refund-dialog';
import { labels } from '../labels';

type Tab = 'invoices' | 'credit-notes';
const TABS: { value: Tab; label: string }[] = [
  { value: 'invoices', label: messages.invoices.title },
  { value: 'credit-notes', label: messages.invoices.creditNotes },
];
const tabId = (tab: Tab) => `invoices-tab-${tab}`;
const panelId = (tab: Tab) => `invoices-panel-${tab}`;

/**
 * {prefix}/invoices: the tax invoices of payments and the credit notes of refunds, both filtered by
 * search, financial year and month; the GSTR-1 register of those filters; refunds for the platform
 * operator (REQUIREMENTS.refundPayment). The super administrator sees every organization's, a tenant its own.
 */
export function InvoicesPage() {
  const { holder, meets } = usePermissions();
  const canRefund = meets(REQUIREMENTS.refundPayment);
  const [tab, setTab] = useState<Tab>('invoices');
  const { searchInput, setSearchInput, search, page, setPage, pageSize, setPageSize } = usePagedSearch();
  const [financialYear, setFinancialYear] = useState<number | null>(null);
  const [month, setMonth] = useState<number | null>(null);
  const [refunding, setRefunding] = useState<Invoice | null>(null);
  const exportRegister = useExportRegister();

  const filters: InvoiceFilters = {
    search: search || undefined,
    financialYear: financialYear ?? undefined,
    month: month ?? undefined,
  };
  const params = { page: page + 1, pageSize, ...filters };
  const paging = { page, setPage, pageSize, setPageSize };

  const download = async () => {
    try {
      await exportRegister.mutateAsync(filters);
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, labels.downloadFailed), { variant: 'error' });
    }
  };

  return (
    <Box>
      <PageHeader
        title={messages.invoices.title}
        subtitle={labels.subtitle}
        actions={
          <Button
            variant="outlined"
            startIcon={<FileDownloadIcon />}
            onClick={download}
            disabled={exportRegister.isPending}
          >
            {messages.invoices.exportRegister}
          </Button>
        }
      />
      <Tabs
        value={tab}
        onChange={(_event, next: Tab) => {
          setTab(next);
          setPage(0);
        }}
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        {TABS.map((t) => (
          <Tab
            key={t.value}
            value={t.value}
            label={t.label}
            id={tabId(t.value)}
            aria-controls={panelId(t.value)}
          />
        ))}
      </Tabs>
      <Paper variant="outlined" role="tabpanel" id={panelId(tab)} aria-labelledby={tabId(tab)}>
        <ListToolbar>
          <SearchField value={searchInput} onChange={setSearchInput} placeholder={messages.invoices.search} />
          <PeriodFilters
            financialYear={financialYear}
            month={month}
            onFinancialYearChange={(year) => {
              setFinancialYear(year);
              setMonth(null);
              setPage(0);
            }}
            onMonthChange={(next) => {
              setMonth(next);
              setPage(0);
            }}
          />
        </ListToolbar>
        {tab === 'invoices' ? (
          <InvoicesTable
            params={params}
            paging={paging}
            showOrganization={holder.isSuperAdmin}
            onRefund={canRefund ? setRefunding : undefined}
          />
        ) : (
          <CreditNotesTable params={params} paging={paging} showOrganization={holder.isSuperAdmin} />
        )}
      </Paper>
      {refunding && (
        <RefundDialog key={refunding.id} invoice={refunding} onClose={() => setRefunding(null)} />
      )}
    </Box>
  );
}
