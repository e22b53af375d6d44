import { Box } from '@mui/material';
import { formatDate, formatRupees, messages, type Invoice } from '@portal/shared';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { RowActionsMenu } from '../../../components/row-actions-menu';
import { extractErrorMessage } from '../../../lib/error-message';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { useDownloadInvoicePdf } from '../api/download-invoice-pdf';
import { useInvoices, type InvoiceListParams } from '../api/get-invoices';
import { labels } from '../labels';
import { taxLines } from '../utils/document-format';
import { refundablePaise } from '../utils/refund-form';
import { documentPagination, DocumentNumber, Lines, type ListPaging } from './document-cells';

export interface InvoicesTableProps {
  params: InvoiceListParams;
  paging: ListPaging;
  /** Only the super administrator sees more than one organization's invoices. */
  showOrganization: boolean;
  /** Given only to who may refund (the platform operator). */
  onRefund?: (invoice: Invoice) => void;
}

/** The tax invoices, newest first, paged by the server. */
export function InvoicesTable({ params, paging, showOrganization, onRefund }: InvoicesTableProps) {
  const list = useInvoices(params);
  const download = useDownloadInvoicePdf();

  const downloadPdf = async (invoice: Invoice) => {
    try {
      await download.mutateAsync(invoice);
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, labels.downloadFailed), { variant: 'error' });
    }
  };

  const columns: DataColumn<Invoice>[] = [
    { label: labels.number, card: 'title', render: (i) => <DocumentNumber number={i.number} /> },
    {
      label: labels.date,
      card: 'subtitle',
      render: (i) => <time dateTime={i.issuedAt}>{formatDate(i.issuedAt)}</time>,
    },
    ...(showOrganization
      ? [{ label: labels.organization, render: (i: Invoice) => i.buyerName, cellSx: { minWidth: 120 } }]
      : []),
    {
      label: labels.gstin,
      render: (i) =>
        i.buyerGstin ?? (
          <Box component="span" sx={{ color: 'text.secondary' }}>
            {messages.tax.unregistered}
          </Box>
        ),
    },
    { label: labels.taxableValue, align: 'right', render: (i) => formatRupees(i.taxableValuePaise) },
    { label: labels.tax, align: 'right', render: (i) => <Lines lines={taxLines(i)} /> },
    {
      label: labels.total,
      align: 'right',
      render: (i) => (
        <Box component="span" sx={{ fontWeight: 600 }}>
          {formatRupees(i.totalPaise)}
        </Box>
      ),
    },
    {
      label: labels.refunded,
      align: 'right',
      render: (i) =>
        i.refundedPaise > 0 ? (
          <Box component="span" sx={{ color: 'error.main' }}>
            {formatRupees(i.refundedPaise)}
          </Box>
        ) : (
          '—'
        ),
    },
  ];

  return (
    <DataTable
      label={messages.invoices.title}
      columns={columns}
      rows={list.data?.items ?? []}
      rowKey={(i) => i.id}
      loading={list.isPending}
      error={list.isError ? extractErrorMessage(list.error, labels.loadFailed) : undefined}
      dense
      emptyText={labels.invoicesEmpty}
      pagination={documentPagination(paging, list.data?.meta.total ?? 0)}
      actions={{
        label: labels.actions,
        labelHidden: true,
        align: 'right',
        render: (invoice) => (
          <RowActionsMenu
            label={`${labels.actions} for ${invoice.number}`}
            actions={[
              { label: messages.invoices.downloadPdf, run: () => void downloadPdf(invoice) },
              onRefund &&
                refundablePaise(invoice) > 0 && {
                  label: messages.refunds.refund,
                  run: () => onRefund(invoice),
                },
            ]}
          />
        ),
      }}
    />
  );
}
