import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, type HttpResponseResolver } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  messages,
  RECOVERY_CODE_COUNT,
  recoveryCodesSchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
  type TwoFactorStatus,
} from '@portal/shared';
import { labels as authLabels } from '../../../components/two-factor/labels';
import { catchDownloads, textOf } from '../../../test/downloads';
import { renderAt } from '../../../test/render-at';
import { done, ok, refusal } from '../../../test/responses';
import { lastRequest, sentRequests, server } from '../../../test/server';
import { aUser } from '../../../test/users';
import { labels } from '../labels';
import { SettingsPage } from '../routes/settings-page';

const SECRET = 'JBSWY3DPEHPK3PXP';
const CODES = Array.from({ length: RECOVERY_CODE_COUNT }, (_, i) => `k7m2q-9xw${i}c`);
const PASSWORD = 'Secret-Passw0rd!';

let status: TwoFactorStatus;
const off: TwoFactorStatus = { enabled: false, required: false, enabledAt: null, recoveryCodesLeft: 0 };
const on: TwoFactorStatus = {
  enabled: true,
  required: false,
  enabledAt: '2026-03-02T10:00:00.000Z',
  recoveryCodesLeft: 7,
};

/** The second factor's answers: a new secret to set up, and its first code turning it on. */
function setup(secret: string) {
  return twoFactorSetupSchema.parse({ secret, otpauthUri: `otpauth://totp/Portal:asha?secret=${secret}` });
}
const enabled = () =>
  ok(recoveryCodesSchema, { recoveryCodes: CODES }, { message: messages.twoFactor.enabled });

/** POST /auth/two-factor/{action} answered by `resolver`. */
function onPost(action: string, resolver: HttpResponseResolver) {
  server.use(http.post(`/api/auth/two-factor/${action}`, resolver));
}

/** What the page sent in its POSTs to /auth/two-factor/..., in order. */
const posts = () => sentRequests('POST', /^\/auth\/two-factor\//);

/** How often the session read the signed-in user (`me`): once on arrival, again after each change. */
const userReads = () => sentRequests('GET', '/auth/auth-session/me').length;

beforeEach(() => {
  status = off;
  server.use(http.get('/api/auth/two-factor', () => ok(twoFactorStatusSchema, status)));
});

function renderSection() {
  return renderAt('/dashboard/settings?section=two-factor', { element: <SettingsPage />, user: aUser() });
}

const textbox = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const passwordInput = () =>
  screen.getByLabelText(messages.password.currentLabel, { selector: 'input' }) as HTMLInputElement;

describe('Settings → Two-factor sign-in: setting it up', () => {
  it('shows the QR code and the setup key, checks the first code, then the recovery codes once', async () => {
    onPost('setup', () => ok(twoFactorSetupSchema, setup(SECRET)));
    onPost('enable', async ({ request }) => {
      const { code } = (await request.json()) as { code: string };
      if (code !== '123456') return refusal(400, messages.twoFactor.codeInvalid);
      status = { ...on, enabledAt: '2026-04-01T00:00:00.000Z', recoveryCodesLeft: RECOVERY_CODE_COUNT };
      return enabled();
    });
    const ui = userEvent.setup();
    await renderSection();
    expect(await screen.findByText(labels.twoFactorOff)).toBeTruthy();
    await ui.click(screen.getByRole('button', { name: authLabels.setUp }));

    const qr = await screen.findByRole('img', { name: authLabels.qrTitle });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(screen.getByTestId('setup-key').textContent).toBe('JBSW Y3DP EHPK 3PXP');
    await ui.click(screen.getByRole('button', { name: authLabels.copyKey }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);

    await ui.click(screen.getByRole('button', { name: authLabels.confirm }));
    expect(await screen.findByText(messages.twoFactor.codeRequired)).toBeTruthy();
    await ui.type(textbox(authLabels.authenticationCode), '12345');
    await ui.click(screen.getByRole('button', { name: authLabels.confirm }));
    expect(await screen.findByText(messages.twoFactor.codeFormat)).toBeTruthy();
    expect(sentRequests('POST', '/auth/two-factor/enable')).toHaveLength(0);

    await ui.clear(textbox(authLabels.authenticationCode));
    await ui.type(textbox(authLabels.authenticationCode), '654321');
    await ui.click(screen.getByRole('button', { name: authLabels.confirm }));
    expect(await screen.findByText(messages.twoFactor.codeInvalid)).toBeTruthy();
    expect(textbox(authLabels.authenticationCode).value).toBe('');

    await ui.type(textbox(authLabels.authenticationCode), '123 456');
    await ui.click(screen.getByRole('button', { name: authLabels.confirm }));
    const list = await screen.findByRole('list', { name: authLabels.recoveryCodesTitle });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES);
    expect(posts().at(-1)).toMatchObject({ path: '/auth/two-factor/enable', body: { code: '123456' } });
    expect(screen.getByText(authLabels.recoveryCodesNote)).toBeTruthy();
    // The status is read again meanwhile; the codes stay until the user is done with them.
    await waitFor(() => expect(sentRequests('GET', '/auth/two-factor')).toHaveLength(2));
    expect(screen.getByRole('list', { name: authLabels.recoveryCodesTitle })).toBeTruthy();

    await ui.click(screen.getByRole('button', { name: authLabels.copyCodes }));
    expect(await navigator.clipboard.readText()).toBe(CODES.join('\n'));

    const downloads = catchDownloads();
    await ui.click(screen.getByRole('button', { name: authLabels.downloadCodes }));
    expect(downloads.map((d) => d.name)).toEqual([authLabels.recoveryCodesFile]);
    expect(await textOf(downloads[0]!.blob)).toContain(CODES.join('\n'));

    await ui.click(screen.getByRole('button', { name: labels.done }));
    expect(await screen.findByText(labels.recoveryCodesLeft(RECOVERY_CODE_COUNT))).toBeTruthy();
    expect(screen.getByText(labels.twoFactorOn)).toBeTruthy();
    expect(screen.queryByRole('list', { name: authLabels.recoveryCodesTitle })).toBeNull();
    // The signed-in user is read again: a role that requires it no longer leads to the setup page.
    await waitFor(() => expect(userReads()).toBeGreaterThan(1));
  });
});

describe('Settings → Two-factor sign-in: when it is on', () => {
  beforeEach(() => {
    status = on;
  });

  it('asks for the password and a code to turn it off, and says what was wrong', async () => {
    onPost('disable', async ({ request }) => {
      const { password } = (await request.json()) as { password: string };
      if (password !== PASSWORD) return refusal(400, messages.password.currentIncorrect);
      status = off;
      return done(messages.twoFactor.disabled);
    });
    const ui = userEvent.setup();
    await renderSection();
    expect(await screen.findByText(labels.recoveryCodesLeft(7))).toBeTruthy();
    expect(screen.queryByText(labels.requiredByRole)).toBeNull();
    await ui.click(screen.getByRole('button', { name: labels.turnOff }));
    const dialog = await screen.findByRole('dialog', { name: labels.turnOffTitle });

    await ui.click(within(dialog).getByRole('button', { name: labels.turnOff }));
    expect(await within(dialog).findByText(messages.password.currentRequired)).toBeTruthy();
    expect(within(dialog).getByText(messages.twoFactor.codeRequired)).toBeTruthy();
    await ui.type(passwordInput(), 'wrong');
    await ui.type(textbox(authLabels.codeOrRecoveryCode), '12ab56');
    await ui.click(within(dialog).getByRole('button', { name: labels.turnOff }));
    expect(await within(dialog).findByText(messages.twoFactor.codeOrRecoveryFormat)).toBeTruthy();
    expect(posts()).toHaveLength(0);

    await ui.clear(textbox(authLabels.codeOrRecoveryCode));
    await ui.type(textbox(authLabels.codeOrRecoveryCode), '123456');
    await ui.click(within(dialog).getByRole('button', { name: labels.turnOff }));
    expect(await within(dialog).findByText(messages.password.currentIncorrect)).toBeTruthy();
    expect(passwordInput().getAttribute('aria-invalid')).toBe('true');

    await ui.clear(passwordInput());
    await ui.type(passwordInput(), PASSWORD);
    await ui.click(within(dialog).getByRole('button', { name: labels.turnOff }));
    expect(await screen.findByText(messages.twoFactor.disabled)).toBeTruthy();
    expect(posts().at(-1)).toMatchObject({
      path: '/auth/two-factor/disable',
      body: { password: PASSWORD, code: '123456' },
    });
    expect(await screen.findByRole('button', { name: authLabels.setUp })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    // A role that requires it then leads to the setup page: the signed-in user is read again.
    await waitFor(() => expect(userReads()).toBeGreaterThan(1));
  });

  it('empties a refused code and keeps the dialog open', async () => {
    onPost('disable', () => refusal(400, messages.twoFactor.codeInvalid));
    const ui = userEvent.setup();
    await renderSection();
    await ui.click(await screen.findByRole('button', { name: labels.turnOff }));
    const dialog = await screen.findByRole('dialog', { name: labels.turnOffTitle });
    await ui.type(passwordInput(), PASSWORD);
    await ui.type(textbox(authLabels.codeOrRecoveryCode), '123456');
    await ui.click(within(dialog).getByRole('button', { name: labels.turnOff }));
    expect(await within(dialog).findByText(messages.twoFactor.codeInvalid)).toBeTruthy();
    expect(textbox(authLabels.codeOrRecoveryCode).value).toBe('');
    expect(passwordInput().value).toBe(PASSWORD);
  });

  it('says that the role requires it, next to Turn off', async () => {
    status = { ...on, required: true };
    await renderSection();
    expect(await screen.findByText(labels.requiredByRole)).toBeTruthy();
    expect(screen.getByRole('button', { name: labels.turnOff })).toBeTruthy();
  });

  it('makes new recovery codes and shows them once', async () => {
    onPost('recovery-codes', () =>
      ok(recoveryCodesSchema, { recoveryCodes: CODES }, { message: messages.twoFactor.recoveryCodesMade }),
    );
    const ui = userEvent.setup();
    await renderSection();
    await ui.click(await screen.findByRole('button', { name: labels.newRecoveryCodes }));
    const dialog = await screen.findByRole('dialog', { name: labels.newCodesTitle });
    await ui.type(passwordInput(), PASSWORD);
    await ui.type(textbox(authLabels.codeOrRecoveryCode), '123456');
    await ui.click(within(dialog).getByRole('button', { name: labels.makeCodes }));
    expect(await screen.findByText(messages.twoFactor.recoveryCodesMade)).toBeTruthy();
    expect(lastRequest('POST', '/auth/two-factor/recovery-codes').body).toEqual({
      password: PASSWORD,
      code: '123456',
    });
    const list = await screen.findByRole('list', { name: authLabels.recoveryCodesTitle });
    expect(within(list).getAllByRole('listitem')).toHaveLength(RECOVERY_CODE_COUNT);
    await ui.click(screen.getByRole('button', { name: labels.done }));
    expect(screen.queryByRole('list', { name: authLabels.recoveryCodesTitle })).toBeNull();
    expect(screen.getByRole('button', { name: labels.newRecoveryCodes })).toBeTruthy();
  });

  it('sets up a new authenticator for a lost one with the password and a recovery code', async () => {
    const NEW_SECRET = 'KRSXG5CTMVRXEZLU';
    onPost('replace', async ({ request }) => {
      const { code } = (await request.json()) as { code: string };
      if (code !== 'k7m2q-9xw4c') return refusal(400, messages.twoFactor.codeInvalid);
      // As the server: the old factor is gone until the new one's first code.
      status = off;
      return ok(twoFactorSetupSchema, setup(NEW_SECRET), { message: messages.twoFactor.replaceStarted });
    });
    onPost('enable', () => {
      status = { ...on, recoveryCodesLeft: RECOVERY_CODE_COUNT };
      return enabled();
    });
    const ui = userEvent.setup();
    await renderSection();
    await ui.click(await screen.findByRole('button', { name: labels.newAuthenticator }));
    const dialog = await screen.findByRole('dialog', { name: labels.newAuthenticatorTitle });
    expect(within(dialog).getByText(labels.newAuthenticatorIntro)).toBeTruthy();
    await ui.type(passwordInput(), PASSWORD);
    await ui.type(textbox(authLabels.codeOrRecoveryCode), 'k7m2q-2222c');
    await ui.click(within(dialog).getByRole('button', { name: labels.startNewAuthenticator }));
    expect(await within(dialog).findByText(messages.twoFactor.codeInvalid)).toBeTruthy();

    await ui.type(textbox(authLabels.codeOrRecoveryCode), 'k7m2q-9xw4c');
    await ui.click(within(dialog).getByRole('button', { name: labels.startNewAuthenticator }));
    // The new secret's QR code and key, then its first code and new recovery codes.
    expect(await screen.findByRole('img', { name: authLabels.qrTitle })).toBeTruthy();
    expect(screen.getByTestId('setup-key').textContent).toBe('KRSX G5CT MVRX EZLU');
    // The status read again meanwhile (now off) does not take the new secret off the screen.
    await waitFor(() => expect(sentRequests('GET', '/auth/two-factor')).toHaveLength(2));
    expect(screen.getByTestId('setup-key').textContent).toBe('KRSX G5CT MVRX EZLU');
    await ui.type(textbox(authLabels.authenticationCode), '123456');
    await ui.click(screen.getByRole('button', { name: authLabels.confirm }));
    expect(await screen.findByRole('list', { name: authLabels.recoveryCodesTitle })).toBeTruthy();
    await ui.click(screen.getByRole('button', { name: labels.done }));
    expect(await screen.findByText(labels.recoveryCodesLeft(RECOVERY_CODE_COUNT))).toBeTruthy();
    await waitFor(() => expect(userReads()).toBeGreaterThan(1));
  });
});
