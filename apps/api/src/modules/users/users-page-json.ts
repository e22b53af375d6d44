import { z } from 'zod';
import { pageMetaSchema, roleSummarySchema, userSchema, type RoleSummary, type User } from '@portal/shared';

const userFieldsSchema = userSchema.omit({ role: true });
const pageShellSchema = z.object({ success: z.literal(true), meta: pageMetaSchema() });

/** A role's checked JSON, kept per permissions list (one object per role in the identity cache). */
const roleJsonByPermissions = new WeakMap<
  RoleSummary['permissions'],
  { id: string; name: string; isSystem: boolean; json: string }
>();

function roleJson(role: RoleSummary): string {
  const kept = roleJsonByPermissions.get(role.permissions);
  if (kept && kept.id === role.id && kept.name === role.name && kept.isSystem === role.isSystem) {
    return kept.json;
  }
  const json = JSON.stringify(roleSummarySchema.parse(role));
  roleJsonByPermissions.set(role.permissions, {
    id: role.id,
    name: role.name,
    isSystem: role.isSystem,
    json,
  });
  return json;
}

/** `{"a":1}` and `"b":2` make `{"a":1,"b":2}` (the object is never empty: it has `success` or an id). */
function withMember(objectJson: string, member: string): string {
  return `${objectJson.slice(0, -1)},${member}}`;
}

/**
 * The answer of GET /api/auth/users as JSON, checked against its schema like every answer, with each
 * role written once rather than once per user. A user's role carries its permissions, so a page of
 * ten users holding one role repeats the same kilobyte ten times: writing it was two thirds of the
 * route's serialization (docs/decisions/007). A role's JSON is kept while the identity cache keeps its
 * permissions list; every other field is checked by zod per request. `parse`, not the type provider's
 * `encode`: these schemas have no codec, so both give the same object, and parse runs zod's compiled
 * object checks, which also make objects JSON.stringify writes faster (28 against 75 µs a page).
 */
export function usersPageJson(page: {
  success: true;
  data: User[];
  meta: z.input<typeof pageShellSchema>['meta'];
}) {
  // Encoding with the schema without `role` leaves the role out; it is then added as kept JSON.
  const users = page.data.map((user) =>
    withMember(JSON.stringify(userFieldsSchema.parse(user)), `"role":${roleJson(user.role)}`),
  );
  const shell = JSON.stringify(pageShellSchema.parse({ success: page.success, meta: page.meta }));
  return withMember(shell, `"data":[${users.join(',')}]`);
}
