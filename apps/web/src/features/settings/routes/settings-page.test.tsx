import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ADMIN_ROLE_PERMISSIONS,
  FEATURES,
  gstinCheckCharacter,
  messages,
  type FeatureKey,
  type SellerTaxProfile,
  type User,
} from '@portal/shared';
import { ApiError } from '../../../lib/api-client';
import { renderAt } from '../../../test/render-at';
import { SettingsPage } from './settings-page';

const apiMock = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), delete: vi.fn() }));
vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: apiMock,
}));
const auth = vi.hoisted(() => ({ user: null as User | null }));
vi.mock('../../auth/auth-context', () => ({ useAuth: () => ({ user: auth.user, isAuthenticated: true }) }));

function userWith(roleName: string, permissions: User['role']['permissions']): User {
  return {
    id: 'u1',
    username: roleName,
    email: `${roleName}@acme.test`,
    fullName: null,
    mobileNo: null,
    enabled: true,
    isActive: true,
    isSubscription: true,
    client: 'Acme',
    roleId: 'r1',
    role: { id: 'r1', name: roleName, isSystem: true, permissions },
    organizationId: 'o1',
    isAdmin: true,
    inviteStatus: 'accepted',
    profileImage: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };
}
const superAdmin = userWith('super_admin', []);
const tenantAdmin = userWith(
  'admin',
  Object.entries(ADMIN_ROLE_PERMISSIONS).map(([key, scopes]) => {
    const f = FEATURES[key as FeatureKey];
    return { id: f.id, featureId: f.id, featureName: f.name, permissionScopes: [...scopes] };
  }),
);

/** A GSTIN of Karnataka whose last character is right, and the same with it mistyped. */
const VALID_GSTIN = `29ABCDE1234F1Z${gstinCheckCharacter('29ABCDE1234F1Z')}`;
const MISTYPED_GSTIN = `29ABCDE1234F1Z${VALID_GSTIN.endsWith('6') ? '7' : '6'}`;

let stored: SellerTaxProfile | null;

beforeEach(() => {
  vi.clearAllMocks();
  auth.user = superAdmin;
  stored = null;
  apiMock.get.mockImplementation(async (path: string) => {
    if (path === '/auth/tax-profile') return { success: true, data: stored };
    throw new ApiError(404, 'Not found');
  });
});

function renderSettings(path = '/dashboard/settings') {
  return renderAt(<SettingsPage />, { route: '/dashboard/settings', path });
}

const sectionLinks = () =>
  within(screen.getByRole('navigation', { name: messages.shell.settings }))
    .getAllByRole('link')
    .map((l) => l.textContent);

const form = () => screen.getByRole('form', { name: 'Tax details' });
const text = (name: RegExp) => within(form()).getByRole('textbox', { name }) as HTMLInputElement;

describe('Settings', () => {
  it('keeps the tax details to the platform operator', () => {
    auth.user = tenantAdmin;
    renderSettings('/dashboard/settings?section=tax');
    expect(sectionLinks()).toEqual([
      messages.password.changePassword,
      messages.twoFactor.title,
      messages.sessions.title,
    ]);
    expect(screen.getByRole('heading', { name: messages.password.changePassword })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Tax details' })).toBeNull();
    expect(apiMock.get).not.toHaveBeenCalled();
  });

  it('checks the GSTIN’s last character, then saves the tax details', async () => {
    apiMock.put.mockImplementation(async (_path: string, body: Omit<SellerTaxProfile, 'updatedAt'>) => ({
      success: true,
      message: messages.tax.profileSaved,
      data: { ...body, updatedAt: '2026-04-01T00:00:00.000Z' },
    }));
    const user = userEvent.setup();
    renderSettings();
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
    expect(apiMock.put).not.toHaveBeenCalled();

    await user.clear(text(/GSTIN/));
    await user.type(text(/GSTIN/), VALID_GSTIN);
    await user.click(within(form()).getByRole('button', { name: 'Save tax details' }));
    await waitFor(() =>
      expect(apiMock.put).toHaveBeenCalledWith('/auth/tax-profile', {
        legalName: 'Interview Credits Pvt Ltd',
        address: '12 MG Road, Bengaluru 560001',
        stateCode: '29',
        gstin: VALID_GSTIN,
        pan: 'ABCDE1234F',
        sac: '998314',
        invoicePrefix: 'IC',
        creditNotePrefix: 'CN',
        signatory: 'Asha Rao',
      }),
    );
    expect(await screen.findByText(messages.tax.profileSaved)).toBeTruthy();
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
    apiMock.put.mockRejectedValue(
      new ApiError(400, messages.http.validation, {
        success: false,
        message: messages.http.validation,
        errors: { signatory: [messages.tax.signatoryRequired] },
      }),
    );
    const user = userEvent.setup();
    renderSettings('/dashboard/settings?section=tax');
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
