import { RECOVERY_CODE_COUNT } from '@portal/shared';

/** Texts used only by Settings (texts docs/product.md names are in packages/shared messages.ts). */
export const labels = {
  taxDetails: 'Tax details',
  taxDetailsIntro:
    'Every tax invoice and credit note carries these details; a change applies to the ones issued after it.',
  saveTaxDetails: 'Save tax details',

  twoFactorOn: 'On',
  twoFactorOff: 'Off',
  twoFactorSince: (date: string) => `Since ${date}`,
  recoveryCodesLeft: (left: number) => `${left} of ${RECOVERY_CODE_COUNT} recovery codes left`,
  newRecoveryCodes: 'New recovery codes',
  turnOff: 'Turn off',
  requiredByRole:
    'Your role requires two-factor sign-in: turned off, it has to be set up again before you can go on.',
  done: 'Done',
  turnOffTitle: 'Turn off two-factor sign-in',
  turnOffIntro:
    'Enter your password and the code your authenticator app shows now, or one of your recovery codes.',
  newCodesTitle: 'Make new recovery codes',
  newCodesIntro:
    'The recovery codes you have now will stop working. Enter your password and the code your authenticator app shows now, or one of your recovery codes.',
  makeCodes: 'Make new codes',
  newAuthenticator: 'Set up a new authenticator',
  newAuthenticatorTitle: 'Set up a new authenticator',
  newAuthenticatorIntro:
    'Lost or replaced your phone? Enter your password and one of your recovery codes (or a current code). Your old authenticator and recovery codes stop working, and your other sessions are signed out.',
  startNewAuthenticator: 'Continue',

  sessionsIntro:
    'The browsers signed in to your account. End any you do not recognise, then change your password.',
  device: 'Device',
  address: 'Address',
  signedIn: 'Signed in',
  lastUsed: 'Last used',
  thisBrowser: 'This browser',
  sessionActions: 'Actions',
  end: 'End',
  endSessionOf: (device: string) => `End session: ${device}`,
  endOthers: 'End all other sessions',
  endTitle: 'End this session?',
  endConfirm: (device: string) => `${device} will be signed out.`,
  signOut: 'Sign out',
  signOutThisBrowser: 'Sign out of this browser',
  endCurrentTitle: 'Sign out this browser?',
  endCurrentConfirm: 'This is the browser you are using: you will be signed out here.',
  endOthersTitle: 'End all other sessions?',
  endOthersConfirm: 'Every browser but this one will be signed out.',
  sessionsEmpty: 'No active sessions.',
  sessionsLoadFailed: 'Could not load the sessions.',
  endFailed: 'The session could not be ended.',
} as const;
