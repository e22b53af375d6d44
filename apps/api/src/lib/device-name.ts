import Bowser from 'bowser';

/** "Chrome 131 on Linux" from a User-Agent header; "Unknown device" when it names nothing. */
export function deviceName(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const { browser, os } = Bowser.parse(userAgent);
  const major = browser.version?.split('.')[0];
  const name = [browser.name, major].filter(Boolean).join(' ');
  const system = [os.name, os.versionName ?? os.version].filter(Boolean).join(' ');
  if (!name && !system) return 'Unknown device';
  return system ? `${name || 'Browser'} on ${system}` : name;
}
