import { messages } from '@portal/shared';
import { apiAs, expect, latestMailTo, linkIn, login, test } from './fixtures';
import { setPasswordThroughLink } from './scenario';
import { codeFor, firstCode, saveSecondFactorAccount } from './second-factor';

const PASSWORD = 'Second-Factor-Passw0rd!';

// Each test signs in several times, and a sign-in may wait up to 30 s for an unused code step.
test.describe.configure({ timeout: 150_000 });

/** A new user of the platform's organization with `role` ('super_admin' or 'admin'), invited by a super administrator. */
async function invitePlatformUser(tag: string, role: 'super_admin' | 'admin') {
  const root = await apiAs();
  try {
    const me = (await root.get('/auth/auth-session/me')) as { data: { organizationId: string } };
    const roles = (await root.get(`/auth/roles?search=${role}&pageSize=100`)) as {
      data: { id: string; name: string }[];
    };
    const email = `${tag}-${Date.now()}@portal.test`;
    const user = (await root.post('/auth/auth-session/register', {
      email,
      username: `${tag}${Date.now()}`,
      mobileNo: '9876501234',
      client: 'Interview Credits Portal',
      organizationId: me.data.organizationId,
      roleId: roles.data.find((r) => r.name === role)!.id,
    })) as { data: { id: string; username: string } };
    return { email, id: user.data.id, username: user.data.username };
  } finally {
    await root.dispose();
  }
}

test('a new super administrator is led to set up two-factor sign-in, then signs in with codes and a recovery code', async ({
  page,
}) => {
  const user = await invitePlatformUser('enrol', 'super_admin');
  await setPasswordThroughLink(page, user.email, PASSWORD);

  // The password alone: every page leads to the setup, which then goes on to the page asked for.
  await page.goto('/dashboard/usermanagement');
  await expect(page).toHaveURL(/\/auth\/login$/);
  await page.getByLabel('Email or username').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/auth\/two-factor-setup/);
  // A reload keeps the way on (it is in the history entry's state).
  await page.reload();
  await expect(page).toHaveURL(/\/auth\/two-factor-setup/);

  // The QR code is drawn in the browser; the setup key is shown beside it. The page shows Set up or,
  // when it started the setup itself, the QR code: wait for one of them before choosing (a reload
  // renders neither until the status has loaded).
  const setUp = page.getByRole('button', { name: 'Set up', exact: true });
  const qrCode = page.getByRole('img', { name: 'QR code for your authenticator app' });
  await expect(setUp.or(qrCode)).toBeVisible();
  if (await setUp.isVisible()) await setUp.click();
  await expect(qrCode).toBeVisible();
  const key = (await page.getByTestId('setup-key').innerText()).replace(/\s+/g, '');
  expect(key).toMatch(/^[A-Z2-7]{32}$/);
  saveSecondFactorAccount({ email: user.email, password: PASSWORD, secret: key });
  await page.getByLabel('Authentication code').fill(await firstCode(user.email, key));
  await page.getByRole('button', { name: 'Confirm' }).click();

  // Ten recovery codes, shown once.
  const shown = page.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem');
  await expect(shown).toHaveCount(10);
  const recoveryCodes = await shown.allInnerTexts();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/dashboard\/usermanagement$/);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();

  // Sign out; in again with a code (login() computes it), then with a recovery code, once.
  const signOut = async () => {
    await page.getByRole('button', { name: /^Open user menu/ }).click();
    await page.getByRole('menuitem', { name: messages.shell.logout }).click();
    await expect(page).toHaveURL(/\/auth\/login/);
  };
  await signOut();
  await login(page, user.email, PASSWORD);
  await signOut();
  const withRecoveryCode = async (code: string) => {
    await page.getByLabel('Email or username').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
  };
  await withRecoveryCode(recoveryCodes[0]!.trim());
  await expect(page).toHaveURL(/\/dashboard/);
  await signOut();
  await withRecoveryCode(recoveryCodes[0]!.trim());
  await expect(page.getByText(messages.twoFactor.codeInvalid)).toBeVisible();
  // Settings shows it on, with nine codes left.
  await page.getByRole('button', { name: 'Use your authenticator app' }).click();
  await page.getByLabel('Authentication code').fill(await codeFor(user.email));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await page.goto('/dashboard/settings?section=two-factor');
  await expect(page.getByText('9 of 10 recovery codes left')).toBeVisible();
});

test('ending a session from another browser signs that browser out, and a new browser is mailed about', async ({
  page,
  browser,
}) => {
  const user = await invitePlatformUser('sessions', 'admin');
  await setPasswordThroughLink(page, user.email, PASSWORD);
  await login(page, user.email, PASSWORD);

  const other = await browser.newContext();
  try {
    const phone = await other.newPage();
    await login(phone, user.email, PASSWORD);
    // The second browser is new to the account: its owner gets an email with a link to the sessions.
    const mail = await latestMailTo(user.email, (m) => m.subject === messages.twoFactor.newDeviceSubject);
    expect(mail.text).toMatch(/Device: .+/);
    expect(mail.text).toMatch(/Address: .+/);
    const link = linkIn(mail);
    expect(link).toMatch(/\/dashboard\/settings\?section=sessions$/);

    await page.goto(link);
    const table = page.getByRole('table', { name: messages.sessions.title });
    await expect(table.getByText('This browser')).toHaveCount(1);
    const endButtons = table.getByRole('button', { name: /^End session: / });
    await expect(endButtons).toHaveCount(1);
    // This browser's own row offers Sign out, not End.
    const hereRow = table.getByRole('row').filter({ hasText: 'This browser' });
    await expect(hereRow.getByRole('button', { name: 'Sign out of this browser' })).toHaveText('Sign out');
    await expect(hereRow.getByRole('button', { name: /^End/ })).toHaveCount(0);
    // The other browser's row: the one without the "This browser" chip.
    const otherRow = table.getByRole('row').filter({ hasNotText: 'This browser' });
    await otherRow.getByRole('button', { name: /^End session: / }).click();
    const dialog = page.getByRole('dialog', { name: 'End this session?' });
    await dialog.getByRole('button', { name: 'End', exact: true }).click();
    await expect(page.getByText(messages.sessions.ended)).toBeVisible();
    await expect(endButtons).toHaveCount(0);

    // The other browser is signed out at its next request.
    await phone.goto('/dashboard/profile');
    await expect(phone).toHaveURL(/\/auth\/login/);
  } finally {
    await other.close();
  }
});

test('the super administrator ends every session of a user from the Users screen', async ({
  page,
  browser,
}) => {
  const user = await invitePlatformUser('ended', 'admin');
  await setPasswordThroughLink(page, user.email, PASSWORD);
  const theirs = await browser.newContext();
  try {
    const theirPage = await theirs.newPage();
    await login(theirPage, user.email, PASSWORD);

    await login(page);
    await page.goto('/dashboard/usermanagement');
    await page.getByRole('textbox', { name: 'Search admin users...' }).fill(user.username);
    await page.getByRole('button', { name: new RegExp(`^Actions for ${user.username}`) }).click();
    await page.getByRole('menuitem', { name: 'End all sessions' }).click();
    await page
      .getByRole('dialog', { name: 'End all sessions?' })
      .getByRole('button', { name: 'End all sessions' })
      .click();
    await expect(page.getByText(messages.sessions.userSessionsEnded)).toBeVisible();

    await theirPage.goto('/dashboard/profile');
    await expect(theirPage).toHaveURL(/\/auth\/login/);
  } finally {
    await theirs.close();
  }
});

test('a lost phone: a recovery code sets up a new authenticator; with none left, the operator resets the factor', async ({
  page,
  browser,
}) => {
  const user = await invitePlatformUser('lost', 'admin');
  await setPasswordThroughLink(page, user.email, PASSWORD);
  await login(page, user.email, PASSWORD);

  // Turned on in Settings; its recovery codes noted.
  await page.goto('/dashboard/settings?section=two-factor');
  await page.getByRole('button', { name: 'Set up', exact: true }).click();
  const lost = (await page.getByTestId('setup-key').innerText()).replace(/\s+/g, '');
  saveSecondFactorAccount({ email: user.email, password: PASSWORD, secret: lost });
  await page.getByLabel('Authentication code').fill(await firstCode(user.email, lost));
  await page.getByRole('button', { name: 'Confirm' }).click();
  const shown = page.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem');
  await expect(shown).toHaveCount(10);
  const recoveryCodes = (await shown.allInnerTexts()).map((c) => c.trim());
  await page.getByRole('button', { name: 'Done' }).click();

  // The phone is gone: the password and a recovery code set up a new authenticator.
  await page.getByRole('button', { name: 'Set up a new authenticator' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set up a new authenticator' });
  await dialog.getByRole('textbox', { name: messages.password.currentLabel }).fill(PASSWORD);
  await dialog.getByLabel('Authentication code or recovery code').fill(recoveryCodes[0]!);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const fresh = (await page.getByTestId('setup-key').innerText()).replace(/\s+/g, '');
  expect(fresh).not.toBe(lost);
  saveSecondFactorAccount({ email: user.email, password: PASSWORD, secret: fresh });
  await page.getByLabel('Authentication code').fill(await firstCode(user.email, fresh));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem')).toHaveCount(10);
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('10 of 10 recovery codes left')).toBeVisible();

  // Lost again, codes and all: the super administrator resets it from the Users screen.
  const operator = await browser.newContext();
  try {
    const operatorPage = await operator.newPage();
    await login(operatorPage);
    await operatorPage.goto('/dashboard/usermanagement');
    await operatorPage.getByRole('textbox', { name: 'Search admin users...' }).fill(user.username);
    await operatorPage.getByRole('button', { name: new RegExp(`^Actions for ${user.username}`) }).click();
    await operatorPage.getByRole('menuitem', { name: 'Reset two-factor sign-in' }).click();
    await operatorPage
      .getByRole('dialog', { name: 'Reset two-factor sign-in?' })
      .getByRole('button', { name: 'Reset two-factor sign-in' })
      .click();
    await expect(operatorPage.getByText(messages.twoFactor.userReset)).toBeVisible();
  } finally {
    await operator.close();
  }
  const mail = await latestMailTo(user.email, (m) => m.subject === messages.twoFactor.resetSubject);
  expect(mail.text).toContain('/auth/forgot-password');
  // Signed out everywhere; the password alone signs in again, and Settings offers the setup.
  await page.goto('/dashboard/profile');
  await expect(page).toHaveURL(/\/auth\/login/);
  saveSecondFactorAccount({ email: user.email, password: PASSWORD, secret: '' });
  await login(page, user.email, PASSWORD);
  await page.goto('/dashboard/settings?section=two-factor');
  await expect(page.getByRole('button', { name: 'Set up', exact: true })).toBeVisible();
});
