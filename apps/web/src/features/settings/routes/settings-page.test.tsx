import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  gstinCheckCharacter,
  messages,
  sellerTaxProfileSchema,
  type SellerTaxProfile,
  type SessionUser,
} from '@portal/shared';
import { renderAt } from '../../../test/render-at';
import { ok, refusal } from '../../../test/responses';
import { lastRequest, sentRequests, server } from '../../../test/server';
import { aSuperAdmin, aTenantAdmin } from '../../../test/users';
import { SettingsPage } from './settings-page';

/** A GSTIN of Karnataka whose last character is right, and the same with it mistyped. */
const VALID_GSTIN = `29ABCDE1234F1Z${gstinCheckCharacter('29ABCDE1234F1Z')}`;
const MISTYPED_GSTIN = `29ABCDE1234F1Z${VALID_GSTIN.endsWith('6') ? '7' : '6'}`;

let stored: SellerTaxProfile | null;
let signedIn: SessionUser;

beforeEach(() => {
  signedIn = aSuperAdmin();
  stored = null;
  server.use(http.get('/api/auth/tax-profile', () => ok(sellerTaxProfileSchema.nullable(), stored)));
});

function renderSettings(path = '/dashboard/settings') {
  return renderAt(path, { element: <SettingsPage />, route: '/dashboard/settings', user: signedIn });
}

const sectionLinks = () =>
  within(screen.getByRole('navigation', { name: messages.shell.settings }))
    .getAllByRole('link')
    .map((l) => l.textContent);

const form = () => screen.getByRole('form', { name: 'Tax details' });
const text = (name: RegExp) => within(form()).getByRole('textbox', { name }) as HTMLInputElement;

describe('Settings', () => {
  it('keeps the tax details to the platform operator', async () => {
    signedIn = aTenantAdmin();
    await renderSettings('/dashboard/settings?section=tax');
    expect(sectionLinks()).toEqual([
      messages.password.changePassword,
      messages.twoFactor.title,
      messages.sessions.title,
    ]);
    expect(screen.getByRole('heading', { name: messages.password.changePassword })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Tax details' })).toBeNull();
    expect(sentRequests('GET', '/auth/tax-profile')).toHaveLength(0);
  });

  it('checks the GSTIN’s last character, then saves the tax details', async () => {
    server.use(
      http.put('/api/auth/tax-profile', async ({ request }) => {
        const body = (await request.json()) as Omit<SellerTaxProfile, 'updatedAt'>;
        const saved = { ...body, updatedAt: '2026-04-01T00:00:00.000Z' };
        return ok(sellerTaxProfileSchema, saved, { message: messages.tax.profileSaved });
      }),
    );
    const user = userEvent.setup();
    await renderSettings();
    expect(sectionLinks()).toEqual([
      messages.password.changePassword,
      messages.twoFactor.title,
      messages.sessions.title,
      'Tax details',
    ]);
    await user.click(screen.getByRole('link', { name: 'Tax details' }));
    await screen.findByRole('form', { name: 'Tax details' });
    expect(screen.getByText(messages.tax.profileMissing)).toBeTruthy();
    expect(text(/SAC code/).value).toBe('998314');
    expect(text(/^Invoice prefix/).value).toBe('IC');
    expect(text(/^Credit note prefix/).value).toBe('CN');

    // Nothing filled in: the first broken rule is the toast, each field says its own.
    await user.click(within(form()).getByRole('button', { name: 'Save tax details' }));
    expect(await screen.findAllByText(messages.tax.legalNameRequired)).toHaveLength(2);
    expect(within(form()).getByText(messages.tax.stateRequired)).toBeTruthy();

    await user.type(text(/Legal name/), 'Interview Credits Pvt Ltd');
    await user.type(text(/Address/), '12 MG Road, Bengaluru 560001');
    await user.click(within(form()).getByRole('combobox', { name: /State/ }));
    await user.click(await screen.findByRole('option', { name: 'Karnataka (29)' }));
    await user.type(text(/GSTIN/), MISTYPED_GSTIN.toLowerCase());
    expect(text(/GSTIN/).value).toBe(MISTYPED_GSTIN);
    await user.type(text(/PAN/), 'abcde1234f');
    await user.type(text(/Signatory/), 'Asha Rao');
    await user.click(within(form()).getByRole('button', { name: 'Save tax details' }));
    // The toast and the field's helper text.
    await waitFor(() => expect(screen.getAllByText(messages.tax.gstinCheck)).toHaveLength(2));
    expect(sentRequests('PUT')).toHaveLength(0);

    await user.clear(text(/GSTIN/));
    await user.type(text(/GSTIN/), VALID_GSTIN);
    await user.click(within(form()).getByRole('button', { name: 'Save tax details' }));
    expect(await screen.findByText(messages.tax.profileSaved)).toBeTruthy();
    expect(lastRequest('PUT', '/auth/tax-profile').body).toEqual({
      legalName: 'Interview Credits Pvt Ltd',
      address: '12 MG Road, Bengaluru 560001',
      stateCode: '29',
      gstin: VALID_GSTIN,
      pan: 'ABCDE1234F',
      sac: '998314',
      invoicePrefix: 'IC',
      creditNotePrefix: 'CN',
      signatory: 'Asha Rao',
    });
  }, 30_000);

  it('loads the saved tax details and shows a server refusal on its field', async () => {
    stored = {
      legalName: 'Interview Credits Pvt Ltd',
      address: '12 MG Road',
      stateCode: '29',
      gstin: VALID_GSTIN,
      pan: 'ABCDE1234F',
      sac: '998315',
      invoicePrefix: 'INV',
      creditNotePrefix: 'CRN',
      signatory: 'Asha Rao',
      updatedAt: '2026-04-01T00:00:00.000Z',
    };
    server.use(
      http.put('/api/auth/tax-profile', () =>
        refusal(400, messages.http.validation, { signatory: [messages.tax.signatoryRequired] }),
      ),
    );
    const user = userEvent.setup();
    await renderSettings('/dashboard/settings?section=tax');
    await waitFor(() => expect(text(/Legal name/).value).toBe('Interview Credits Pvt Ltd'));
    expect(within(form()).getByRole('combobox', { name: /State/ }).textContent).toBe('Karnataka (29)');
    expect(text(/GSTIN/).value).toBe(VALID_GSTIN);
    expect(text(/SAC code/).value).toBe('998315');
    expect(text(/^Invoice prefix/).value).toBe('INV');
    expect(within(form()).getByText(/Invoices are numbered INV\/\d\d-\d\d\/000001/)).toBeTruthy();
    expect(screen.queryByText(messages.tax.profileMissing)).toBeNull();

    await user.click(within(form()).getByRole('button', { name: 'Save tax details' }));
    expect(await within(form()).findByText(messages.tax.signatoryRequired)).toBeTruthy();
    expect(await screen.findByText(messages.http.validation)).toBeTruthy();
  });
});
