import { Box } from '@mui/material';
import { formatCount, formatDate, formatRupees, messages, type CreditNote } from '@portal/shared';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { RowActionsMenu } from '../../../components/row-actions-menu';
import { extractErrorMessage } from '../../../lib/error-message';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { useDownloadCreditNotePdf } from '../api/download-credit-note-pdf';
import { useCreditNotes } from '../api/get-credit-notes';
import type { InvoiceListParams } from '../api/get-invoices';
import { labels } from '../labels';
import { documentPagination, DocumentNumber, type ListPaging } from './document-cells';

export interface CreditNotesTableProps {
  params: InvoiceListParams;
  paging: ListPaging;
  /** Only the super administrator sees more than one organization's credit notes. */
  showOrganization: boolean;
}

/** The credit notes refunds issued, newest first, paged by the server. */
export function CreditNotesTable({ params, paging, showOrganization }: CreditNotesTableProps) {
  const list = useCreditNotes(params);
  const download = useDownloadCreditNotePdf();

  const downloadPdf = async (note: CreditNote) => {
    try {
      await download.mutateAsync(note);
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, labels.downloadFailed), { variant: 'error' });
    }
  };

  const columns: DataColumn<CreditNote>[] = [
    { label: labels.number, card: 'title', render: (n) => <DocumentNumber number={n.number} /> },
    {
      label: labels.date,
      card: 'subtitle',
      render: (n) => <time dateTime={n.issuedAt}>{formatDate(n.issuedAt)}</time>,
    },
    { label: labels.againstInvoice, render: (n) => <DocumentNumber number={n.invoiceNumber} /> },
    ...(showOrganization
      ? [{ label: labels.organization, render: (n: CreditNote) => n.buyerName, cellSx: { minWidth: 120 } }]
      : []),
    {
      label: labels.total,
      align: 'right',
      render: (n) => (
        <Box component="span" sx={{ fontWeight: 600 }}>
          {formatRupees(n.totalPaise)}
        </Box>
      ),
    },
    { label: labels.creditsTakenBack, align: 'right', render: (n) => formatCount(n.creditsTakenBack) },
    { label: labels.reason, render: (n) => n.reason, cellSx: { minWidth: 160, overflowWrap: 'anywhere' } },
  ];

  return (
    <DataTable
      label={messages.invoices.creditNotes}
      columns={columns}
      rows={list.data?.items ?? []}
      rowKey={(n) => n.id}
      loading={list.isPending}
      error={list.isError ? extractErrorMessage(list.error, labels.loadFailed) : undefined}
      dense
      emptyText={labels.creditNotesEmpty}
      pagination={documentPagination(paging, list.data?.meta.total ?? 0)}
      actions={{
        label: labels.actions,
        labelHidden: true,
        align: 'right',
        render: (note) => (
          <RowActionsMenu
            label={`${labels.actions} for ${note.number}`}
            actions={[{ label: messages.invoices.downloadPdf, run: () => void downloadPdf(note) }]}
          />
        ),
      }}
    />
  );
}
