import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES, messages } from '@portal/shared';
import { activityEntries, notifications, storedFiles, supportTickets } from '../../db/schema/index.js';
import { createTestApp, signIn, type Session, type TestContext } from '../../../test/harness.js';
import {
  DOCX_BYTES,
  EXE_BYTES,
  HTML_BYTES,
  multipartBody,
  PDF_BYTES,
  pdfOfSize,
  PNG_BYTES,
  type FilePart,
} from '../../../test/upload-fixtures.js';
import { createRole, createTenant, type TestTenant } from '../../../test/fixtures.js';

let ctx: TestContext;
let root: Session;
let acme: TestTenant;
let globex: TestTenant;

beforeAll(async () => {
  ctx = await createTestApp();
  root = await signIn(ctx.app);
  acme = await createTenant(ctx, 'Acme', { subscribed: true });
  globex = await createTenant(ctx, 'Globex', { subscribed: true });
});
afterAll(() => ctx.close());

const TICKETS = '/api/auth/support/tickets';

function raise(session: Session, fields: Record<string, string>, file?: FilePart) {
  const { payload, headers } = multipartBody(fields, file);
  return session.post(TICKETS, payload, { headers });
}

async function ticketCount() {
  return (await ctx.database.db.select().from(supportTickets)).length;
}
async function fileCount() {
  return (await ctx.database.db.select({ id: storedFiles.id }).from(storedFiles)).length;
}

describe('raising a ticket', () => {
  it('stores a JSON feedback ticket, Active, named "No file attached" of type text', async () => {
    const res = await acme.session.post(TICKETS, { message: 'The dashboard is slow', type: 'feedback' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.message).toBe(messages.support.submitted);
    expect(body.data).toMatchObject({
      name: messages.support.noFile,
      type: 'text',
      status: 'Active',
      ticketType: 'feedback',
      message: 'The dashboard is slow',
      organizationId: acme.organizationId,
      file: null,
    });
    expect(body.data.ticketId).toMatch(/^TICKET-\d{13,}$/);

    const [row] = await ctx.database.db
      .select()
      .from(supportTickets)
      .where(eq(supportTickets.id, body.data.id));
    expect(row).toMatchObject({
      organizationId: acme.organizationId,
      createdBy: acme.userId,
      status: 'Active',
    });
    const notes = await ctx.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, ctx.adminId), eq(notifications.kind, 'ticket_created')));
    expect(notes.some((n) => n.body.includes(body.data.ticketId))).toBe(true);
    const activity = await ctx.database.db
      .select()
      .from(activityEntries)
      .where(eq(activityEntries.entityId, body.data.id));
    expect(activity).toHaveLength(1);
    expect(activity[0]).toMatchObject({ action: 'created', organizationId: acme.organizationId });
  });

  it('raises a call-back request from a multipart form', async () => {
    const res = await raise(acme.session, { message: 'Please call me', type: 'callback' });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(messages.support.callbackRequested);
    expect(res.json().data.ticketType).toBe('callback');
  });

  it("refuses an empty message with 'Please enter a message' and stores nothing", async () => {
    const tickets = await ticketCount();
    const files = await fileCount();
    for (const res of [
      await acme.session.post(TICKETS, { message: '   ' }),
      await acme.session.post(TICKETS, {}),
      await raise(acme.session, { message: '' }, { name: 'a.pdf', data: PDF_BYTES }),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(messages.support.messageRequired);
    }
    expect(await ticketCount()).toBe(tickets);
    expect(await fileCount()).toBe(files);
  });

  it('keeps a PDF attachment, named and typed after it, and serves it back', async () => {
    const res = await raise(
      acme.session,
      { message: 'See the attached invoice' },
      { name: 'invoice.pdf', data: PDF_BYTES, contentType: 'application/pdf' },
    );
    expect(res.statusCode).toBe(201);
    const ticket = res.json().data;
    expect(ticket).toMatchObject({ name: 'invoice.pdf', type: 'application/pdf' });
    expect(ticket.file).toMatch(/^\/api\/files\/[0-9a-f-]{36}$/);

    const file = await acme.session.get(ticket.file);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-disposition']).toContain('attachment; filename="invoice.pdf"');
    expect(file.rawPayload.equals(PDF_BYTES)).toBe(true);
  });

  it('accepts a Word document and a PNG by their content', async () => {
    const docx = await raise(acme.session, { message: 'docx' }, { name: 'brief.docx', data: DOCX_BYTES });
    expect(docx.statusCode).toBe(201);
    expect(docx.json().data.type).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    const png = await raise(acme.session, { message: 'png' }, { name: 'screen.png', data: PNG_BYTES });
    expect(png.statusCode).toBe(201);
    expect(png.json().data.type).toBe('image/png');
  });

  it('refuses an attachment whose content is not allowed, even named .pdf, and stores nothing', async () => {
    const tickets = await ticketCount();
    const files = await fileCount();
    for (const data of [EXE_BYTES, HTML_BYTES]) {
      const res = await raise(
        acme.session,
        { message: 'Totally an invoice' },
        { name: 'invoice.pdf', data, contentType: 'application/pdf' },
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(messages.support.fileTypeRejected);
    }
    expect(await ticketCount()).toBe(tickets);
    expect(await fileCount()).toBe(files);
  });

  it('accepts exactly 5 MB and refuses 5 MB + 1 byte with 413', async () => {
    const ok = await raise(
      acme.session,
      { message: 'big' },
      { name: 'big.pdf', data: pdfOfSize(MAX_UPLOAD_BYTES) },
    );
    expect(ok.statusCode).toBe(201);
    const tickets = await ticketCount();
    const files = await fileCount();
    const res = await raise(
      acme.session,
      { message: 'too big' },
      { name: 'big.pdf', data: pdfOfSize(MAX_UPLOAD_BYTES + 1) },
    );
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(messages.support.fileTooLarge);
    expect(await ticketCount()).toBe(tickets);
    expect(await fileCount()).toBe(files);
  });

  it('gives tickets raised at once distinct ids', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => globex.session.post(TICKETS, { message: `burst ${i}` })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    const ids = new Set(results.map((r) => r.json().data.ticketId));
    expect(ids.size).toBe(6);
  });
});

describe('listing tickets', () => {
  it('pages, counts and sorts by the last update, newest first', async () => {
    const res = await acme.session.get(`${TICKETS}?page=1&pageSize=10`);
    expect(res.statusCode).toBe(200);
    const { data, meta } = res.json();
    const total = await ctx.database.db
      .select()
      .from(supportTickets)
      .where(eq(supportTickets.organizationId, acme.organizationId));
    expect(meta).toEqual({ page: 1, pageSize: 10, total: total.length });
    const dates = data.map((t: { updatedDate: string }) => t.updatedDate);
    expect([...dates].sort().reverse()).toEqual(dates);

    const secondPage = await acme.session.get(`${TICKETS}?page=2&pageSize=10`);
    expect(secondPage.json().data).toHaveLength(Math.max(0, total.length - 10));
  });

  it('refuses a page size other than 10, 25, 50 or 100', async () => {
    const res = await acme.session.get(`${TICKETS}?pageSize=7`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(messages.support.pageSizeInvalid);
    expect((await acme.session.get(`${TICKETS}?pageSize=100`)).statusCode).toBe(200);
  });

  it('searches the ticket id, the message and the file name', async () => {
    const created = (await acme.session.post(TICKETS, { message: 'Searchable zebra crossing' })).json().data;
    const byMessage = (await acme.session.get(`${TICKETS}?search=ZEBRA`)).json();
    expect(byMessage.data.map((t: { id: string }) => t.id)).toEqual([created.id]);
    const byId = (await acme.session.get(`${TICKETS}?search=${created.ticketId}`)).json();
    expect(byId.data.map((t: { id: string }) => t.id)).toEqual([created.id]);
    const byFile = (await acme.session.get(`${TICKETS}?search=invoice.pdf`)).json();
    expect(byFile.meta.total).toBe(1);
    expect(byFile.data[0].name).toBe('invoice.pdf');
    const none = (await acme.session.get(`${TICKETS}?search=${encodeURIComponent('%')}`)).json();
    expect(none.meta.total).toBe(0);
  });

  it("shows a tenant only its own organization's tickets, and super_admin every one", async () => {
    const mine = (await globex.session.get(`${TICKETS}?pageSize=100`)).json();
    expect(mine.data.length).toBeGreaterThan(0);
    expect(
      mine.data.every((t: { organizationId: string }) => t.organizationId === globex.organizationId),
    ).toBe(true);
    const all = (await root.get(`${TICKETS}?pageSize=100`)).json();
    const orgs = new Set(all.data.map((t: { organizationId: string }) => t.organizationId));
    expect(orgs.has(acme.organizationId) && orgs.has(globex.organizationId)).toBe(true);
    expect(all.meta.total).toBe(await ticketCount());
  });
});

describe('one ticket: view, status, delete', () => {
  let ticket: { id: string; ticketId: string; file: string };
  beforeAll(async () => {
    ticket = (
      await raise(acme.session, { message: 'Lifecycle' }, { name: 'life.pdf', data: PDF_BYTES })
    ).json().data;
  });

  it("answers 404 for another organization's ticket and its attachment", async () => {
    expect((await globex.session.get(`${TICKETS}/${ticket.id}`)).statusCode).toBe(404);
    expect(
      (await globex.session.put(`${TICKETS}/${ticket.id}/status`, { status: 'Inactive' })).statusCode,
    ).toBe(404);
    expect((await globex.session.delete(`${TICKETS}/${ticket.id}`)).statusCode).toBe(404);
    expect((await globex.session.get(ticket.file)).statusCode).toBe(404);
    const [row] = await ctx.database.db.select().from(supportTickets).where(eq(supportTickets.id, ticket.id));
    expect(row?.status).toBe('Active');
  });

  it('reads it back, for its organization and for super_admin', async () => {
    const mine = await acme.session.get(`${TICKETS}/${ticket.id}`);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data.message).toBe('Lifecycle');
    expect((await root.get(`${TICKETS}/${ticket.id}`)).statusCode).toBe(200);
    expect((await root.get(ticket.file)).statusCode).toBe(200);
  });

  it('deactivates and activates it, moving it to the top of the list', async () => {
    const off = await acme.session.put(`${TICKETS}/${ticket.id}/status`, { status: 'Inactive' });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ message: messages.support.deactivated, data: { status: 'Inactive' } });
    const top = (await acme.session.get(TICKETS)).json().data[0];
    expect(top.id).toBe(ticket.id);
    const on = await acme.session.put(`${TICKETS}/${ticket.id}/status`, { status: 'Active' });
    expect(on.json()).toMatchObject({ message: messages.support.activated, data: { status: 'Active' } });
    expect((await acme.session.put(`${TICKETS}/${ticket.id}/status`, { status: 'Closed' })).statusCode).toBe(
      400,
    );
    const log = await ctx.database.db
      .select()
      .from(activityEntries)
      .where(and(eq(activityEntries.entityId, ticket.id), eq(activityEntries.action, 'updated')));
    expect(log).toHaveLength(2);
  });

  it('deletes it with its attachment', async () => {
    const fileId = ticket.file.split('/').pop()!;
    const res = await acme.session.delete(`${TICKETS}/${ticket.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(messages.support.deleted);
    expect((await acme.session.get(`${TICKETS}/${ticket.id}`)).statusCode).toBe(404);
    expect(await ctx.database.db.select().from(storedFiles).where(eq(storedFiles.id, fileId))).toHaveLength(
      0,
    );
    expect((await acme.session.get(ticket.file)).statusCode).toBe(404);
  });
});

describe('permissions', () => {
  it('needs Support READ, CREATE, UPDATE, DELETE and EXPORT for each action (403 otherwise)', async () => {
    const readOnly = await createRole(ctx, acme.organizationId, 'Support reader', {
      support: ['READ'],
    });
    const nothing = await createRole(ctx, acme.organizationId, 'No support', { dashboard: ['READ'] });
    const reader = await createTenant(ctx, 'Acme Reader', {
      organizationId: acme.organizationId,
      roleId: readOnly,
      subscribed: false,
    });
    const outsider = await createTenant(ctx, 'Acme Outsider', {
      organizationId: acme.organizationId,
      roleId: nothing,
      subscribed: false,
    });
    const someTicket = (await acme.session.post(TICKETS, { message: 'perm check' })).json().data;

    expect((await reader.session.get(TICKETS)).statusCode).toBe(200);
    expect((await reader.session.get(`${TICKETS}/${someTicket.id}`)).statusCode).toBe(200);
    const tickets = await ticketCount();
    expect((await reader.session.post(TICKETS, { message: 'x' })).statusCode).toBe(403);
    expect(await ticketCount()).toBe(tickets);
    expect(
      (await reader.session.put(`${TICKETS}/${someTicket.id}/status`, { status: 'Inactive' })).statusCode,
    ).toBe(403);
    expect((await reader.session.delete(`${TICKETS}/${someTicket.id}`)).statusCode).toBe(403);
    expect((await reader.session.get(`${TICKETS}/export`)).statusCode).toBe(403);
    expect((await outsider.session.get(TICKETS)).statusCode).toBe(403);

    // A same-organization user without Support READ cannot fetch attachments either.
    const attached = (
      await raise(acme.session, { message: 'att' }, { name: 'p.png', data: PNG_BYTES })
    ).json().data;
    expect((await reader.session.get(attached.file)).statusCode).toBe(200);
    expect((await outsider.session.get(attached.file)).statusCode).toBe(404);
  });
});

describe('export', () => {
  it('streams an .xlsx of the filtered list with formula-like text neutralised', async () => {
    await acme.session.post(TICKETS, { message: '=HYPERLINK("http://evil.example","click") export-me' });
    const res = await acme.session.get(`${TICKETS}/export?format=xlsx&search=export-me`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="tickets-\d{4}-\d{2}-\d{2}\.xlsx"/,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Ticket ID');
    expect(sheet.rowCount).toBe(2);
    // Type and attachment as the list shows them.
    expect([sheet.getRow(2).getCell(3).value, sheet.getRow(2).getCell(4).value]).toEqual([
      'Feedback',
      'None',
    ]);
    const message = sheet.getRow(2).getCell(5).value;
    expect(message).toBe(`'=HYPERLINK("http://evil.example","click") export-me`);
  });

  it('writes a CSV too, and only the caller’s organization', async () => {
    const res = await globex.session.get(`${TICKETS}/export?format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Ticket ID,Name,Type,Attachment,Message,Status,Raised By,Created Date,Updated Date',
    );
    const globexTotal = (await globex.session.get(TICKETS)).json().meta.total;
    expect(lines).toHaveLength(globexTotal + 1);
    expect(res.body).not.toContain('export-me');
  });
});
