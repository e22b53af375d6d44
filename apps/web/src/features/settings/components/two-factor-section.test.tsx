import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages, RECOVERY_CODE_COUNT, type TwoFactorStatus } from '@portal/shared';
import { ApiError } from '../../../lib/api-client';
import { renderAt } from '../../../test/render-at';
import { labels as authLabels } from '../../auth/labels';
import { labels } from '../labels';
import { SettingsPage } from '../routes/settings-page';

const apiMock = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), delete: vi.fn() }));
vi.mock('../../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client')>()),
  api: apiMock,
}));
const auth = vi.hoisted(() => ({ refetchUser: vi.fn() }));
vi.mock('../../auth/auth-context', () => ({
  useAuth: () => ({
    user: { id: 'u1', role: { name: 'admin', permissions: [] } },
    isAuthenticated: true,
    refetchUser: auth.refetchUser,
  }),
}));

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

/** A refusal as the API client throws it: the body's message. */
const refusal = (status: number, message: string) =>
  new ApiError(status, message, { success: false, message });

beforeEach(() => {
  vi.clearAllMocks();
  status = off;
  apiMock.get.mockImplementation(async (path: string) => {
    if (path === '/auth/two-factor') return { success: true, data: status };
    throw new ApiError(404, 'Not found');
  });
});
afterEach(() => vi.restoreAllMocks());

function renderSection() {
  return renderAt(<SettingsPage />, {
    route: '/dashboard/settings',
    path: '/dashboard/settings?section=two-factor',
  });
}

/** Catches the file a download hands to the browser (jsdom has neither object URLs nor navigation). */
function catchDownload() {
  const caught: { name?: string; blob?: Blob } = {};
  URL.createObjectURL = (blob: Blob) => {
    caught.blob = blob;
    return 'blob:caught';
  };
  URL.revokeObjectURL = () => undefined;
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    caught.name = this.download;
  });
  return caught;
}

function textOf(blob: Blob): Promise<string> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(blob);
  });
}

const textbox = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const passwordInput = () =>
  screen.getByLabelText(messages.password.currentLabel, { selector: 'input' }) as HTMLInputElement;

describe('Settings → Two-factor sign-in: setting it up', () => {
  it('shows the QR code and the setup key, checks the first code, then the recovery codes once', async () => {
    apiMock.post.mockImplementation(async (path: string, body?: { code: string }) => {
      if (path === '/auth/two-factor/setup')
        return {
          success: true,
          data: { secret: SECRET, otpauthUri: `otpauth://totp/Portal:asha?secret=${SECRET}` },
        };
      if (path === '/auth/two-factor/enable') {
        if (body?.code !== '123456') throw refusal(400, messages.twoFactor.codeInvalid);
        status = { ...on, enabledAt: '2026-04-01T00:00:00.000Z', recoveryCodesLeft: RECOVERY_CODE_COUNT };
        return { success: true, data: { recoveryCodes: CODES }, message: messages.twoFactor.enabled };
      }
      throw new Error(`unexpected ${path}`);
    });
    const ui = userEvent.setup();
    renderSection();
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
    expect(apiMock.post).not.toHaveBeenCalledWith('/auth/two-factor/enable', expect.anything());

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
    expect(apiMock.post).toHaveBeenLastCalledWith('/auth/two-factor/enable', { code: '123456' });
    expect(screen.getByText(authLabels.recoveryCodesNote)).toBeTruthy();
    // The status is read again meanwhile; the codes stay until the user is done with them.
    await waitFor(() => expect(apiMock.get).toHaveBeenCalledTimes(2));
    expect(screen.getByRole('list', { name: authLabels.recoveryCodesTitle })).toBeTruthy();

    await ui.click(screen.getByRole('button', { name: authLabels.copyCodes }));
    expect(await navigator.clipboard.readText()).toBe(CODES.join('\n'));

    const download = catchDownload();
    await ui.click(screen.getByRole('button', { name: authLabels.downloadCodes }));
    expect(download.name).toBe(authLabels.recoveryCodesFile);
    expect(await textOf(download.blob!)).toContain(CODES.join('\n'));

    await ui.click(screen.getByRole('button', { name: labels.done }));
    expect(await screen.findByText(labels.recoveryCodesLeft(RECOVERY_CODE_COUNT))).toBeTruthy();
    expect(screen.getByText(labels.twoFactorOn)).toBeTruthy();
    expect(screen.queryByRole('list', { name: authLabels.recoveryCodesTitle })).toBeNull();
    expect(auth.refetchUser).toHaveBeenCalled();
  });
});

describe('Settings → Two-factor sign-in: when it is on', () => {
  beforeEach(() => {
    status = on;
  });

  it('asks for the password and a code to turn it off, and says what was wrong', async () => {
    apiMock.post.mockImplementation(async (_path: string, body: { password: string; code: string }) => {
      if (body.password !== PASSWORD) throw refusal(400, messages.password.currentIncorrect);
      status = off;
      return { success: true, message: messages.twoFactor.disabled };
    });
    const ui = userEvent.setup();
    renderSection();
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
    expect(apiMock.post).not.toHaveBeenCalled();

    await ui.clear(textbox(authLabels.codeOrRecoveryCode));
    await ui.type(textbox(authLabels.codeOrRecoveryCode), '123456');
    await ui.click(within(dialog).getByRole('button', { name: labels.turnOff }));
    expect(await within(dialog).findByText(messages.password.currentIncorrect)).toBeTruthy();
    expect(passwordInput().getAttribute('aria-invalid')).toBe('true');

    await ui.clear(passwordInput());
    await ui.type(passwordInput(), PASSWORD);
    await ui.click(within(dialog).getByRole('button', { name: labels.turnOff }));
    expect(await screen.findByText(messages.twoFactor.disabled)).toBeTruthy();
    expect(apiMock.post).toHaveBeenLastCalledWith('/auth/two-factor/disable', {
      password: PASSWORD,
      code: '123456',
    });
    expect(await screen.findByRole('button', { name: authLabels.setUp })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    // A role that requires it then leads to the setup page: the signed-in user is read again.
    expect(auth.refetchUser).toHaveBeenCalled();
  });

  it('empties a refused code and keeps the dialog open', async () => {
    apiMock.post.mockRejectedValue(refusal(400, messages.twoFactor.codeInvalid));
    const ui = userEvent.setup();
    renderSection();
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
    renderSection();
    expect(await screen.findByText(labels.requiredByRole)).toBeTruthy();
    expect(screen.getByRole('button', { name: labels.turnOff })).toBeTruthy();
  });

  it('makes new recovery codes and shows them once', async () => {
    apiMock.post.mockResolvedValue({
      success: true,
      data: { recoveryCodes: CODES },
      message: messages.twoFactor.recoveryCodesMade,
    });
    const ui = userEvent.setup();
    renderSection();
    await ui.click(await screen.findByRole('button', { name: labels.newRecoveryCodes }));
    const dialog = await screen.findByRole('dialog', { name: labels.newCodesTitle });
    await ui.type(passwordInput(), PASSWORD);
    await ui.type(textbox(authLabels.codeOrRecoveryCode), '123456');
    await ui.click(within(dialog).getByRole('button', { name: labels.makeCodes }));
    expect(await screen.findByText(messages.twoFactor.recoveryCodesMade)).toBeTruthy();
    expect(apiMock.post).toHaveBeenCalledWith('/auth/two-factor/recovery-codes', {
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
    apiMock.post.mockImplementation(async (path: string, body: { password?: string; code: string }) => {
      if (path === '/auth/two-factor/replace') {
        if (body.code !== 'k7m2q-9xw4c') throw refusal(400, messages.twoFactor.codeInvalid);
        // As the server: the old factor is gone until the new one's first code.
        status = off;
        return {
          success: true,
          message: messages.twoFactor.replaceStarted,
          data: { secret: NEW_SECRET, otpauthUri: `otpauth://totp/Portal:asha?secret=${NEW_SECRET}` },
        };
      }
      if (path === '/auth/two-factor/enable') {
        status = { ...on, recoveryCodesLeft: RECOVERY_CODE_COUNT };
        return { success: true, data: { recoveryCodes: CODES }, message: messages.twoFactor.enabled };
      }
      throw new Error(`unexpected ${path}`);
    });
    const ui = userEvent.setup();
    renderSection();
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
    await waitFor(() => expect(apiMock.get).toHaveBeenCalledTimes(2));
    expect(screen.getByTestId('setup-key').textContent).toBe('KRSX G5CT MVRX EZLU');
    await ui.type(textbox(authLabels.authenticationCode), '123456');
    await ui.click(screen.getByRole('button', { name: authLabels.confirm }));
    expect(await screen.findByRole('list', { name: authLabels.recoveryCodesTitle })).toBeTruthy();
    await ui.click(screen.getByRole('button', { name: labels.done }));
    expect(await screen.findByText(labels.recoveryCodesLeft(RECOVERY_CODE_COUNT))).toBeTruthy();
    expect(auth.refetchUser).toHaveBeenCalled();
  });
});
