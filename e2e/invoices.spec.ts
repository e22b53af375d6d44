import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import { messages } from '@portal/shared';
import { apiAs, expect, latestMailTo, login, tenCreditsSubscription, test } from './fixtures';
import { setPasswordThroughLink } from './scenario';

/**
 * Issue 23, tax invoices: a tenant admin's online purchase is invoiced, the invoice's PDF downloads,
 * and the super administrator's part refund from the Invoices screen issues a credit note and takes
 * back the credits it paid for.
 */

/** The bytes of a download: a PDF begins with `%PDF-`. */
async function bytesOf(download: Download): Promise<Buffer> {
  return readFile(await download.path());
}

async function downloadPdf(page: Page, number: string): Promise<Download> {
  await page.getByRole('button', { name: `Actions for ${number}` }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: messages.invoices.downloadPdf }).click();
  return downloading;
}

test('an online purchase is invoiced; a part refund issues a credit note and takes credits back', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const tag = randomUUID().slice(0, 8);
  const email = `invoiced.${tag}@acme.test`;
  const password = 'Invoiced-Passw0rd!';
  const client = `Invoice Buyer ${tag}`;
  const root = await apiAs();
  try {
    // Set up without a payment: the purchase below is the organization's only invoice.
    await root.post(
      '/auth/onboarding',
      {
        user: {
          username: `invoiced.${tag}`,
          email,
          mobileNo: '9876543210',
          client,
          organizationId: randomUUID(),
        },
        subscription: tenCreditsSubscription(0),
      },
      { 'Idempotency-Key': `invoices-${tag}` },
    );
  } finally {
    await root.dispose();
  }
  await setPasswordThroughLink(page, email, password);

  // The tenant admin buys 5 credits (₹500 + 18 % GST) in the sandbox checkout.
  await login(page, email, password);
  await page.getByRole('link', { name: 'Billing' }).click();
  await expect(page.getByTestId('credit-balance')).toHaveText('10');
  await page.getByRole('spinbutton', { name: 'Credits to buy' }).fill('5');
  await page.getByRole('button', { name: 'Buy credits' }).click();
  await page.getByRole('dialog', { name: 'Test checkout' }).getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByText('Payment verified successfully.')).toBeVisible();
  await expect(page.getByTestId('credit-balance')).toHaveText('15');

  // The payment's invoice, on the tenant's own Invoices: no organization column, no refund.
  await page.getByRole('link', { name: messages.invoices.title }).click();
  await expect(page).toHaveURL(/\/dashboard\/invoices$/);
  const invoices = page.getByRole('table', { name: messages.invoices.title });
  // The heading and one invoice (a loading row stands in for it at first).
  const row = invoices.getByRole('row').filter({ hasText: '₹590.00' });
  await expect(row).toHaveCount(1);
  await expect(invoices.getByRole('row')).toHaveCount(2);
  const number = (await row.getByRole('cell').first().textContent()) ?? '';
  expect(number).toMatch(/^IC\/\d\d-\d\d\/\d{6}$/);
  await expect(row.getByRole('cell')).toHaveText([
    number,
    /^\d{1,2} [A-Z][a-z]{2} \d{4}$/,
    messages.tax.unregistered,
    '₹500.00',
    /^(CGST ₹45\.00SGST ₹45\.00|IGST ₹90\.00)$/,
    '₹590.00',
    '—',
    '',
  ]);
  // The tenant's admins were mailed the receipt, the same invoice attached.
  const receipt = await latestMailTo(email, (mail) => mail.subject.includes(number));
  expect(receipt.attachments?.map((a) => a.filename)).toEqual([`${number.replaceAll('/', '-')}.pdf`]);
  const invoicePdf = await downloadPdf(page, number);
  expect(invoicePdf.suggestedFilename()).toBe(`${number.replaceAll('/', '-')}.pdf`);
  expect((await bytesOf(invoicePdf)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await page.getByRole('button', { name: `Actions for ${number}` }).click();
  await expect(page.getByRole('menuitem')).toHaveText([messages.invoices.downloadPdf]);
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: /^Open user menu/ }).click();
  await page.getByRole('menuitem', { name: messages.shell.logout }).click();
  await expect(page).toHaveURL(/\/auth\/login/);

  // The super administrator refunds ₹236 of it: two credits' worth.
  await login(page);
  await page.getByRole('link', { name: messages.invoices.title }).click();
  await page.getByRole('textbox', { name: messages.invoices.search }).fill(client);
  const invoiceRow = invoices.getByRole('row').filter({ hasText: number });
  await expect(invoiceRow).toContainText(client);
  await expect(invoices.getByRole('row')).toHaveCount(2);
  await invoiceRow.getByRole('button', { name: `Actions for ${number}` }).click();
  await page.getByRole('menuitem', { name: messages.refunds.refund }).click();
  const dialog = page.getByRole('dialog', { name: 'Refund payment' });
  const amount = dialog.getByRole('textbox', { name: /Amount to refund/ });
  await expect(amount).toHaveValue('590.00');
  await amount.fill('236');
  const reason = `Two credits not needed ${tag}`;
  await dialog.getByRole('textbox', { name: /Reason/ }).fill(reason);
  await dialog.getByRole('button', { name: messages.refunds.refund }).click();
  await expect(page.getByText(messages.refunds.done)).toBeVisible();
  await expect(dialog).toBeHidden();
  // Refunded, the eighth column.
  await expect(invoiceRow.getByRole('cell').nth(7)).toHaveText('₹236.00');

  await page.getByRole('tab', { name: messages.invoices.creditNotes }).click();
  const notes = page.getByRole('table', { name: messages.invoices.creditNotes });
  const noteRow = notes.getByRole('row').filter({ hasText: reason });
  await expect(noteRow).toHaveCount(1);
  await expect(notes.getByRole('row')).toHaveCount(2);
  const noteNumber = (await noteRow.getByRole('cell').first().textContent()) ?? '';
  expect(noteNumber).toMatch(/^CN\/\d\d-\d\d\/\d{6}$/);
  await expect(noteRow.getByRole('cell')).toHaveText([
    noteNumber,
    /^\d{1,2} [A-Z][a-z]{2} \d{4}$/,
    number,
    client,
    '₹236.00',
    '2',
    reason,
    '',
  ]);
  const notePdf = await downloadPdf(page, noteNumber);
  expect((await bytesOf(notePdf)).subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // The tenant's balance falls by the credits taken back.
  const tenant = await apiAs(email, password);
  try {
    const credits = (await tenant.get('/auth/credits')) as { data: { balance: number } };
    expect(credits.data.balance).toBe(15 - 2);
  } finally {
    await tenant.dispose();
  }
});
