import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { SnackbarProvider } from 'notistack';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FEATURES,
  gstinCheckCharacter,
  messages,
  type CompanyDetails,
  type Scope,
  type User,
} from '@portal/shared';
import { avatarInitials } from '../../../components/avatar-initials';
import { ApiError } from '../../../lib/api-client';
import { ProfilePage } from './profile-page';

const apiMock = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), delete: vi.fn() }));
vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: apiMock,
}));
const auth = vi.hoisted(() => ({ user: null as User | null }));
vi.mock('../../auth/auth-context', () => ({ useAuth: () => ({ user: auth.user, isAuthenticated: true }) }));

const ORG = '22222222-2222-4222-8222-222222222222';

function testUser(overrides: Partial<User> = {}, orgScopes: Scope[] = ['READ', 'UPDATE']): User {
  return {
    id: 'u1',
    username: 'asha',
    email: 'asha@example.test',
    fullName: 'Asha Rao',
    mobileNo: '9876543210',
    enabled: true,
    isActive: true,
    isSubscription: true,
    client: 'Acme',
    roleId: 'r1',
    role: {
      id: 'r1',
      name: 'admin',
      isSystem: true,
      permissions: [
        {
          id: 'p1',
          featureId: FEATURES.organizations.id,
          featureName: FEATURES.organizations.name,
          permissionScopes: orgScopes,
        },
      ],
    },
    organizationId: ORG,
    isAdmin: true,
    inviteStatus: 'accepted',
    profileImage: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function serve(user: User, companyDetails: CompanyDetails | null = null) {
  auth.user = user;
  apiMock.get.mockImplementation(async (path: string) => {
    if (path === '/auth/profile') return { success: true, data: user };
    if (path === `/auth/companies/${ORG}`) return { success: true, data: companyDetails };
    throw new ApiError(404, 'Not found');
  });
}

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <SnackbarProvider maxSnack={3}>
        <MemoryRouter>
          <ProfilePage />
        </MemoryRouter>
      </SnackbarProvider>
    </QueryClientProvider>,
  );
}

const info = () => screen.getByRole('region', { name: messages.profile.userInformation });
const company = () => screen.getByRole('region', { name: messages.profile.companyDetails });
const saveIn = (region: HTMLElement) => within(region).getByRole('button', { name: messages.profile.save });

beforeEach(() => {
  vi.clearAllMocks();
  localStorage.clear();
  serve(testUser());
});

describe('user information', () => {
  it('shows the email read-only, +91 before the number, and disables Save while a field is empty', async () => {
    const user = userEvent.setup();
    renderPage();
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
    renderPage();
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
    renderPage();
    await screen.findByRole('region', { name: messages.profile.userInformation });
    expect(within(info()).getByText(avatarInitials(testUser()))).toBeTruthy();
    expect(avatarInitials(testUser())).toBe('A');
  });

  it('saves, shows the toast and the 3 s message', async () => {
    apiMock.put.mockImplementation(async (_p: string, body: { fullName: string }) => ({
      success: true,
      data: testUser({ fullName: body.fullName }),
    }));
    const user = userEvent.setup();
    renderPage();
    const fullName = await within(
      await screen.findByRole('region', { name: messages.profile.userInformation }),
    ).findByRole('textbox', { name: /Full Name/ });
    await user.clear(fullName);
    await user.type(fullName, 'Asha R');
    await user.click(saveIn(info()));
    await waitFor(() =>
      expect(apiMock.put).toHaveBeenCalledWith('/auth/profile', {
        fullName: 'Asha R',
        mobileNo: '9876543210',
      }),
    );
    expect(await screen.findByText(messages.profile.updated)).toBeTruthy();
    expect(await screen.findByText(messages.profile.infoSaved)).toBeTruthy();
  });

  it('refuses to save without an active subscription, with the SPEC message', async () => {
    serve(testUser({ isSubscription: false }));
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('region', { name: messages.profile.userInformation });
    await user.click(saveIn(info()));
    expect(await screen.findByText(messages.profile.subscriptionExpired)).toBeTruthy();
    expect(apiMock.put).not.toHaveBeenCalled();
  });

  it('says the profile could not be loaded', async () => {
    apiMock.get.mockRejectedValue(new ApiError(500, 'boom'));
    renderPage();
    expect(await screen.findByText(messages.fallback.loadProfile)).toBeTruthy();
  });
});

describe('company details', () => {
  it('starts from the company name given at the invite while none is saved', async () => {
    serve(testUser({ client: 'Acme Hiring' }), null);
    renderPage();
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
    apiMock.post.mockImplementation(async (_p: string, body: Record<string, unknown>) => ({
      success: true,
      data: { ...body, updatedAt: '2025-01-01T00:00:00.000Z' },
    }));
    // No company name on the user either: nothing to start the form from.
    serve(testUser({ client: null }));
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('region', { name: messages.profile.companyDetails });
    await user.click(await within(company()).findByRole('button', { name: messages.profile.save }));
    expect(await within(company()).findByText(messages.company.nameRequired)).toBeTruthy();
    expect(within(company()).getByText(messages.company.websiteRequired)).toBeTruthy();
    expect(apiMock.post).not.toHaveBeenCalled();

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
    expect(apiMock.post).not.toHaveBeenCalled();

    const linkedin = within(company()).getByRole('textbox', { name: /LinkedIn URL/ });
    await user.clear(linkedin);
    await user.paste('https://www.linkedin.com/company/acme');
    await user.click(saveIn(company()));
    await waitFor(() => expect(apiMock.post).toHaveBeenCalled());
    expect(apiMock.post.mock.calls[0]).toEqual([
      '/auth/companies',
      expect.objectContaining({
        organizationId: ORG,
        foundedIn: 2010,
        pincode: '560001',
        instagramUrl: null,
      }),
    ]);
    expect(await screen.findByText(messages.profile.companySaved)).toBeTruthy();
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
    apiMock.post.mockImplementation(async (_p: string, body: Record<string, unknown>) => ({
      success: true,
      data: { ...saved, ...body },
    }));
    const gstin = `29AAACA1234A1Z${gstinCheckCharacter('29AAACA1234A1Z')}`;
    const user = userEvent.setup();
    renderPage();
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
    expect(apiMock.post).not.toHaveBeenCalled();

    await user.click(state);
    await user.click(await screen.findByRole('option', { name: 'Karnataka (29)' }));
    await user.click(saveIn(company()));
    await waitFor(() => expect(apiMock.post).toHaveBeenCalled());
    expect(apiMock.post.mock.calls[0]).toEqual([
      '/auth/companies',
      expect.objectContaining({ organizationId: ORG, gstStateCode: '29', gstin }),
    ]);
    expect(await screen.findByText(messages.profile.companySaved)).toBeTruthy();
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
    apiMock.post.mockResolvedValue({ success: true, data: saved });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('region', { name: messages.profile.companyDetails });
    await waitFor(() =>
      expect(within(company()).getByRole('textbox', { name: /Company Name/ })).toHaveProperty(
        'value',
        'Acme Pvt Ltd',
      ),
    );
    await user.click(saveIn(company()));
    await waitFor(() => expect(apiMock.post).toHaveBeenCalled());
    expect(apiMock.post.mock.calls[0]![1]).toMatchObject({ gstStateCode: null, gstin: null });
  });

  it('is read-only without Organization Management UPDATE', async () => {
    serve(testUser({}, ['READ']));
    renderPage();
    await screen.findByRole('region', { name: messages.profile.companyDetails });
    const name = await within(company()).findByRole('textbox', { name: /Company Name/ });
    expect((name as HTMLInputElement).readOnly).toBe(true);
    expect(within(company()).queryByRole('button', { name: messages.profile.save })).toBeNull();
    // The GST state's choices do not open either.
    await userEvent.setup().click(within(company()).getByRole('combobox', { name: /GST State/ }));
    expect(screen.queryByRole('listbox')).toBeNull();
  });
});
