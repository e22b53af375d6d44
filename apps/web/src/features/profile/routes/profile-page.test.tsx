import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  companyAnswerSchema,
  companyDetailsSchema,
  gstinCheckCharacter,
  messages,
  userSchema,
  type CompanyDetails,
  type OnboardingTaxParticulars,
  type Scope,
  type SessionUser,
} from '@portal/shared';
import { avatarInitials } from '../../../components/avatar-initials';
import { renderAt } from '../../../test/render-at';
import { answer, ok, refusal } from '../../../test/responses';
import { lastRequest, sentRequests, server } from '../../../test/server';
import { aUser, ORG_ID as ORG, permission, type UserSpec } from '../../../test/users';
import { ProfilePage } from './profile-page';

/** Asha Rao, a tenant admin holding `orgScopes` of Organization Management. */
function testUser(fields: UserSpec = {}, orgScopes: Scope[] = ['READ', 'UPDATE']): SessionUser {
  return aUser({
    username: 'asha',
    email: 'asha@example.test',
    fullName: 'Asha Rao',
    role: 'admin',
    permissions: [permission('organizations', orgScopes)],
    ...fields,
  });
}

let signedIn: SessionUser;

/**
 * Signs in as `user`, whose profile the API answers, with the organization's `companyDetails` (and,
 * while it has none, the GST particulars given at its onboarding).
 */
function serve(
  user: SessionUser,
  companyDetails: CompanyDetails | null = null,
  onboarding: OnboardingTaxParticulars | null = null,
) {
  signedIn = user;
  server.use(
    http.get('/api/auth/profile', () => ok(userSchema, user)),
    http.get(`/api/auth/companies/${ORG}`, () =>
      answer(companyAnswerSchema, { success: true, data: companyDetails, onboarding }),
    ),
  );
}

function renderPage() {
  return renderAt('/dashboard/profile', { element: <ProfilePage />, user: signedIn });
}

/** POST /auth/companies saving what it is sent, as the API does, over `saved`. */
function saveCompanies(saved: Partial<CompanyDetails> = {}) {
  server.use(
    http.post('/api/auth/companies', async ({ request }) => {
      const body = (await request.json()) as CompanyDetails;
      const company = { ...saved, ...body, updatedAt: '2025-01-01T00:00:00.000Z' };
      return ok(companyDetailsSchema, company, { message: messages.profile.companySaved });
    }),
  );
}

const info = () => screen.getByRole('region', { name: messages.profile.userInformation });
const company = () => screen.getByRole('region', { name: messages.profile.companyDetails });
const saveIn = (region: HTMLElement) => within(region).getByRole('button', { name: messages.profile.save });

beforeEach(() => {
  serve(testUser());
});

describe('user information', () => {
  it('shows the email read-only, +91 before the number, and disables Save while a field is empty', async () => {
    const user = userEvent.setup();
    await renderPage();
    const fullName = await within(
      await screen.findByRole('region', { name: messages.profile.userInformation }),
    ).findByRole('textbox', { name: /Full Name/ });
    expect((within(info()).getByRole('textbox', { name: /Email/ }) as HTMLInputElement).readOnly).toBe(true);
    expect(within(info()).getByText('+91')).toBeTruthy();
    expect((saveIn(info()) as HTMLButtonElement).disabled).toBe(false);
    await user.clear(fullName);
    expect((saveIn(info()) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says why Save is disabled on arrival without a contact number, and enables it once typed', async () => {
    serve(testUser({ mobileNo: null }));
    const user = userEvent.setup();
    await renderPage();
    const contact = await within(
      await screen.findByRole('region', { name: messages.profile.userInformation }),
    ).findByRole('textbox', { name: /Contact Number/ });
    const save = saveIn(info()) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    const hint = 'Fill in Contact Number to save.';
    expect(within(info()).getByText(hint)).toBeTruthy();
    expect(document.getElementById(save.getAttribute('aria-describedby')!)?.textContent).toBe(hint);

    await user.clear(within(info()).getByRole('textbox', { name: /Full Name/ }));
    expect(within(info()).getByText('Fill in Full Name and Contact Number to save.')).toBeTruthy();
    await user.type(within(info()).getByRole('textbox', { name: /Full Name/ }), 'Asha Rao');
    await user.type(contact, '9876543210');
    expect((saveIn(info()) as HTMLButtonElement).disabled).toBe(false);
    expect(within(info()).queryByText(/to save\.$/)).toBeNull();
    expect(saveIn(info()).getAttribute('aria-describedby')).toBeNull();
  });

  it('draws the avatar initials with the rule of the top bar (from the role name)', async () => {
    await renderPage();
    await screen.findByRole('region', { name: messages.profile.userInformation });
    expect(within(info()).getByText(avatarInitials(signedIn))).toBeTruthy();
    expect(avatarInitials(signedIn)).toBe('A');
  });

  it('saves, shows the toast and the 3 s message', async () => {
    server.use(
      http.put('/api/auth/profile', async ({ request }) => {
        const { fullName } = (await request.json()) as { fullName: string };
        return ok(userSchema, { ...signedIn, fullName }, { message: messages.profile.updated });
      }),
    );
    const user = userEvent.setup();
    await renderPage();
    const fullName = await within(
      await screen.findByRole('region', { name: messages.profile.userInformation }),
    ).findByRole('textbox', { name: /Full Name/ });
    await user.clear(fullName);
    await user.type(fullName, 'Asha R');
    await user.click(saveIn(info()));
    expect(await screen.findByText(messages.profile.updated)).toBeTruthy();
    expect(await screen.findByText(messages.profile.infoSaved)).toBeTruthy();
    expect(lastRequest('PUT', '/auth/profile').body).toEqual({ fullName: 'Asha R', mobileNo: '9876543210' });
  });

  it('refuses to save without an active subscription, with the SPEC message', async () => {
    serve(testUser({ isSubscription: false }));
    const user = userEvent.setup();
    await renderPage();
    await screen.findByRole('region', { name: messages.profile.userInformation });
    await user.click(saveIn(info()));
    expect(await screen.findByText(messages.profile.subscriptionExpired)).toBeTruthy();
    expect(sentRequests('PUT')).toHaveLength(0);
  });

  it('says the profile could not be loaded', async () => {
    server.use(
      http.get('/api/auth/profile', () => refusal(500, 'boom')),
      http.get(`/api/auth/companies/${ORG}`, () => refusal(500, 'boom')),
    );
    await renderPage();
    expect(await screen.findByText(messages.fallback.loadProfile)).toBeTruthy();
  });
});

describe('company details', () => {
  it('starts from the company name given at the invite while none is saved', async () => {
    serve(testUser({ client: 'Acme Hiring' }), null);
    await renderPage();
    await screen.findByRole('region', { name: messages.profile.companyDetails });
    const name = (await within(company()).findByRole('textbox', {
      name: /Company Name/,
    })) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Acme Hiring'));
    expect(
      (within(company()).getByRole('textbox', { name: /Company Email/ }) as HTMLInputElement).value,
    ).toBe('');
  });

  it('enforces the required fields, then saves through POST /auth/companies', async () => {
    saveCompanies();
    // No company name on the user either: nothing to start the form from.
    serve(testUser({ client: null }));
    const user = userEvent.setup();
    await renderPage();
    await screen.findByRole('region', { name: messages.profile.companyDetails });
    await user.click(await within(company()).findByRole('button', { name: messages.profile.save }));
    expect(await within(company()).findByText(messages.company.nameRequired)).toBeTruthy();
    expect(within(company()).getByText(messages.company.websiteRequired)).toBeTruthy();
    expect(sentRequests('POST')).toHaveLength(0);

    const values: [RegExp, string][] = [
      [/Company Name/, 'Acme Pvt Ltd'],
      [/Company Email/, 'hello@acme.example'],
      [/Address/, '12 MG Road'],
      [/Country/, 'India'],
      [/State/, 'Karnataka'],
      [/City/, 'Bengaluru'],
      [/Pincode/, '560001'],
      [/Industry Type/, 'Software'],
      [/Founded In/, '2010'],
      [/Website URL/, 'https://acme.example'],
      [/LinkedIn URL/, 'https://example.com/acme'],
    ];
    for (const [name, value] of values)
      await user.type(within(company()).getByRole('textbox', { name }), value);
    await user.click(saveIn(company()));
    expect(await within(company()).findByText(messages.company.linkedinInvalid)).toBeTruthy();
    expect(sentRequests('POST')).toHaveLength(0);

    const linkedin = within(company()).getByRole('textbox', { name: /LinkedIn URL/ });
    await user.clear(linkedin);
    await user.paste('https://www.linkedin.com/company/acme');
    await user.click(saveIn(company()));
    expect(await screen.findByText(messages.profile.companySaved)).toBeTruthy();
    expect(sentRequests('POST').map((r) => r.path)).toEqual(['/auth/companies']);
    expect(lastRequest('POST', '/auth/companies').body).toMatchObject({
      organizationId: ORG,
      foundedIn: 2010,
      pincode: '560001',
      instagramUrl: null,
    });
  }, 40_000);

  it('saves the GST state and the GSTIN, in capitals and matching the state', async () => {
    const saved: CompanyDetails = {
      organizationId: ORG,
      name: 'Acme Pvt Ltd',
      email: 'hello@acme.example',
      address: '12 MG Road',
      country: 'India',
      state: 'Karnataka',
      city: 'Bengaluru',
      pincode: '560001',
      industryType: 'Software',
      foundedIn: 2010,
      websiteUrl: 'https://acme.example',
      linkedinUrl: null,
      instagramUrl: null,
      facebookUrl: null,
      aboutUs: null,
      gstStateCode: null,
      gstin: null,
      updatedAt: '2025-01-01T00:00:00.000Z',
    };
    serve(testUser(), saved);
    saveCompanies(saved);
    const gstin = `29AAACA1234A1Z${gstinCheckCharacter('29AAACA1234A1Z')}`;
    const user = userEvent.setup();
    await renderPage();
    const gstinField = await within(
      await screen.findByRole('region', { name: messages.profile.companyDetails }),
    ).findByRole('textbox', { name: /GSTIN/ });
    await waitFor(() =>
      expect(within(company()).getByRole('textbox', { name: /Company Name/ })).toHaveProperty(
        'value',
        'Acme Pvt Ltd',
      ),
    );
    const state = within(company()).getByRole('combobox', { name: /GST State/ });
    await user.click(state);
    await user.click(await screen.findByRole('option', { name: 'Maharashtra (27)' }));
    await user.type(gstinField, gstin.toLowerCase());
    expect(gstinField).toHaveProperty('value', gstin);
    await user.click(saveIn(company()));
    expect(await within(company()).findByText(messages.tax.gstinStateMismatch)).toBeTruthy();
    expect(sentRequests('POST')).toHaveLength(0);

    await user.click(state);
    await user.click(await screen.findByRole('option', { name: 'Karnataka (29)' }));
    await user.click(saveIn(company()));
    expect(await screen.findByText(messages.profile.companySaved)).toBeTruthy();
    expect(sentRequests('POST').map((r) => r.path)).toEqual(['/auth/companies']);
    expect(lastRequest('POST', '/auth/companies').body).toMatchObject({
      organizationId: ORG,
      gstStateCode: '29',
      gstin,
    });
  }, 20_000);

  it('sends no GST state or GSTIN when they are left empty', async () => {
    const saved = {
      organizationId: ORG,
      name: 'Acme Pvt Ltd',
      email: 'hello@acme.example',
      address: '12 MG Road',
      country: 'India',
      state: 'Karnataka',
      city: 'Bengaluru',
      pincode: '560001',
      industryType: 'Software',
      foundedIn: 2010,
      websiteUrl: 'https://acme.example',
      linkedinUrl: null,
      instagramUrl: null,
      facebookUrl: null,
      aboutUs: null,
      gstStateCode: null,
      gstin: null,
      updatedAt: '2025-01-01T00:00:00.000Z',
    } satisfies CompanyDetails;
    serve(testUser(), saved);
    saveCompanies(saved);
    const user = userEvent.setup();
    await renderPage();
    await screen.findByRole('region', { name: messages.profile.companyDetails });
    await waitFor(() =>
      expect(within(company()).getByRole('textbox', { name: /Company Name/ })).toHaveProperty(
        'value',
        'Acme Pvt Ltd',
      ),
    );
    await user.click(saveIn(company()));
    expect(await screen.findByText(messages.profile.companySaved)).toBeTruthy();
    expect(lastRequest('POST', '/auth/companies').body).toMatchObject({ gstStateCode: null, gstin: null });
  });

  it('starts from the GST particulars given at onboarding while no details are saved', async () => {
    const gstin = `29AAACA1234A1Z${gstinCheckCharacter('29AAACA1234A1Z')}`;
    serve(testUser(), null, { gstStateCode: '29', gstin });
    await renderPage();
    await screen.findByRole('region', { name: messages.profile.companyDetails });
    await waitFor(() =>
      expect(within(company()).getByRole('textbox', { name: /GSTIN/ })).toHaveProperty('value', gstin),
    );
    expect(within(company()).getByRole('combobox', { name: /GST State/ }).textContent).toContain(
      'Karnataka (29)',
    );
  });

  it('is read-only without Organization Management UPDATE', async () => {
    serve(testUser({}, ['READ']));
    await renderPage();
    await screen.findByRole('region', { name: messages.profile.companyDetails });
    const name = await within(company()).findByRole('textbox', { name: /Company Name/ });
    expect((name as HTMLInputElement).readOnly).toBe(true);
    expect(within(company()).queryByRole('button', { name: messages.profile.save })).toBeNull();
    // The GST state's choices do not open either.
    await userEvent.setup().click(within(company()).getByRole('combobox', { name: /GST State/ }));
    expect(screen.queryByRole('listbox')).toBeNull();
  });
});
