import { useState } from 'react';
import { Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import { enqueueSnackbar } from '../../../lib/snackbar';
import {
  attachmentKind,
  formatDateTime,
  messages,
  SYSTEM_ROLES,
  TICKET_PAGE_SIZES,
  ticketRequestLabels,
  type Ticket,
} from '@portal/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, type DataColumn } from '../../../components/data-table';
import { SearchField } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { plainId, ShortId } from '../../../components/short-id';
import { extractErrorMessage } from '../../../lib/error-message';
import { usePagedSearch } from '../../../lib/use-paged-search';
import { useAuth } from '../../../lib/session/auth-context';
import { usePermissions } from '../../../lib/session/use-permission';
import { useDeleteTicket } from '../api/delete-ticket';
import { useExportTickets } from '../api/export-tickets';
import { useTickets } from '../api/get-tickets';
import { useSetTicketStatus } from '../api/set-ticket-status';
import { RaiseTicketForm } from '../components/raise-ticket-form';
import { TicketActionsMenu } from '../components/ticket-actions-menu';

/** {prefix}/support: 'Raise Ticket' and 'Raised Tickets', persisted per organization. */
export function SupportPage() {
  const { user } = useAuth();
  const { can } = usePermissions();
  const [viewing, setViewing] = useState<Ticket | null>(null);
  const [toDelete, setToDelete] = useState<Ticket | null>(null);
  const { searchInput, setSearchInput, search, page, setPage, pageSize, setPageSize } = usePagedSearch();
  const canRead = can('support', 'READ');
  const canCreate = can('support', 'CREATE');
  const tickets = useTickets({ page: page + 1, pageSize, search: search || undefined }, { enabled: canRead });
  const setStatus = useSetTicketStatus();
  const deleteTicket = useDeleteTicket();
  const exportTickets = useExportTickets();
  const showOrganization = user?.role.name === SYSTEM_ROLES.superAdmin;

  const toggleStatus = async (ticket: Ticket) => {
    const status = ticket.status === 'Active' ? 'Inactive' : 'Active';
    try {
      const updated = await setStatus.mutateAsync({ id: ticket.id, status });
      if (viewing?.id === ticket.id) setViewing(updated);
      enqueueSnackbar(status === 'Active' ? messages.support.activated : messages.support.deactivated, {
        variant: 'success',
      });
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.support.updateFailed), { variant: 'error' });
    }
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await deleteTicket.mutateAsync(toDelete.id);
      if (viewing?.id === toDelete.id) setViewing(null);
      enqueueSnackbar(messages.support.deleted, { variant: 'success' });
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.support.deleteFailed), { variant: 'error' });
    } finally {
      setToDelete(null);
    }
  };

  const runExport = async () => {
    try {
      await exportTickets.mutateAsync(search || undefined);
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.support.exportFailed), { variant: 'error' });
    }
  };

  const columns: DataColumn<Ticket>[] = [
    {
      label: 'Ticket ID',
      card: 'title',
      render: (ticket) => (
        <>
          {/* TICKET- and a timestamp: short enough to show whole, and what people quote to support. */}
          <ShortId id={ticket.ticketId} format={plainId} keep={Infinity} />
          {showOrganization && (
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
              {ticket.organizationName}
            </Typography>
          )}
        </>
      ),
    },
    {
      label: 'Name',
      card: 'subtitle',
      render: (ticket) => ticket.name,
      cellSx: { maxWidth: 260, overflowWrap: 'anywhere' },
    },
    {
      label: 'Type',
      render: (ticket) => (
        <>
          {ticketRequestLabels[ticket.ticketType]}
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            {messages.support.attachmentLabel}: {attachmentKind(ticket.type)}
          </Typography>
        </>
      ),
    },
    { label: 'Updated Date', render: (ticket) => formatDateTime(ticket.updatedDate) },
    {
      label: 'Status',
      render: (ticket) => (
        <Chip size="small" label={ticket.status} color={ticket.status === 'Active' ? 'success' : 'default'} />
      ),
    },
  ];

  return (
    <Box>
      <PageHeader title={messages.shell.support} />
      <Paper
        variant="outlined"
        component="section"
        aria-label={messages.support.raiseTicket}
        sx={{ p: 3, mb: 3 }}
      >
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {messages.support.raiseTicket}
        </Typography>
        <RaiseTicketForm viewing={viewing} onNew={() => setViewing(null)} canCreate={canCreate} />
      </Paper>

      {canRead && (
        <Paper variant="outlined" component="section" aria-label={messages.support.raisedTickets}>
          <Stack
            direction={{ xs: 'column', md: 'row' }}
            spacing={2}
            sx={{ p: 2, alignItems: { md: 'center' }, justifyContent: 'space-between' }}
          >
            <Typography variant="h6" component="h2">
              {messages.support.raisedTickets}
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
              <SearchField
                value={searchInput}
                onChange={setSearchInput}
                placeholder={messages.support.search}
              />
              {can('support', 'EXPORT') && (
                <Button
                  variant="outlined"
                  startIcon={<DownloadIcon />}
                  onClick={runExport}
                  disabled={exportTickets.isPending}
                >
                  {messages.common.exportToExcel}
                </Button>
              )}
            </Stack>
          </Stack>
          <DataTable
            label={messages.support.raisedTickets}
            size="small"
            columns={columns}
            rows={tickets.data?.items ?? []}
            rowKey={(ticket) => ticket.id}
            isSelected={(ticket) => viewing?.id === ticket.id}
            loading={tickets.isPending}
            error={tickets.isError ? messages.support.loadFailed : undefined}
            emptyText={messages.support.empty}
            pagination={{
              count: tickets.data?.meta.total ?? 0,
              page,
              pageSize,
              onPageChange: setPage,
              pageSizes: TICKET_PAGE_SIZES,
              onPageSizeChange: setPageSize,
            }}
            actions={{
              label: 'Action',
              align: 'right',
              render: (ticket) => (
                <TicketActionsMenu
                  ticket={ticket}
                  onView={setViewing}
                  onToggleStatus={can('support', 'UPDATE') ? toggleStatus : undefined}
                  onDelete={can('support', 'DELETE') ? setToDelete : undefined}
                />
              ),
            }}
          />
        </Paper>
      )}

      <ConfirmDialog
        open={toDelete !== null}
        title={messages.support.deleteTitle}
        message={messages.support.deleteConfirm}
        confirmLabel="Delete"
        destructive
        busy={deleteTicket.isPending}
        onConfirm={confirmDelete}
        onClose={() => setToDelete(null)}
      />
    </Box>
  );
}
