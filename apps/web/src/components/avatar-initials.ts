/**
 * The one rule for the text of a person's avatar, used by the top bar's user menu and My Profile
 * alike: derived from the role name (docs/product.md, "Shell"), `super_admin` → `SA`, `admin` → `A`,
 * no role → `G` (guest).
 */
export function avatarInitials(user: { role: { name: string } } | null | undefined): string {
  const words = (user?.role.name ?? 'guest').split(/[\s_-]+/).filter(Boolean);
  return (
    words
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join('') || 'G'
  );
}
