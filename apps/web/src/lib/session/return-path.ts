/**
 * Where to go after signing in: the page a signed-out visitor asked for (the guard passes it in the
 * navigation state), when it is a path of this site outside /auth; otherwise the dashboard.
 */
export function returnPathAfterSignIn(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  if (typeof from !== 'string' || !from.startsWith('/')) return '/dashboard';
  const base = 'http://portal.invalid';
  let url: URL;
  try {
    url = new URL(from, base);
  } catch {
    return '/dashboard';
  }
  // `//evil.example` or `/\evil.example` would resolve to another site.
  if (url.origin !== base || url.pathname.startsWith('/auth')) return '/dashboard';
  return `${url.pathname}${url.search}${url.hash}`;
}
