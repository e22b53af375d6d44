import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page, Request } from '@playwright/test';
import { FEATURES, IMPORT_KINDS, messages } from '@portal/shared';
import { PAGE_ACCESS } from '../apps/web/src/lib/page-access';
import { apiAs, expect, login, SUPER_ADMIN, tenCreditsSubscription, test } from './fixtures';
import { setPasswordThroughLink } from './scenario';

/**
 * Issue 21, "Never offer what the server will refuse": every page of the route table, and every
 * control on it, for a member holding a custom role, a tenant admin and the super administrator.
 * The crawl opens each page, clicks each enabled button, link, tab and menu item of its main area
 * one at a time (and the shell's once: top bar, user menu, notifications, sidebar), going back to
 * the page between clicks, confirms what asks for confirmation and submits what is a form. It
 * fails on any API answer 403, and on any click that lands on the guard's refusal: a control
 * offering an action or a page the user may not have.
 */

/** This worker's tenant: every row the crawl acts on carries it, and list pages are searched for it. */
const tag = randomUUID().slice(0, 8);
/** What the crawl itself types, so that its own rows never match `tag` and are not crawled again. */
const made = randomUUID().slice(0, 8);

const ORG = { client: `Crawl Org ${tag}`, organizationId: randomUUID() };

interface Actor {
  label: string;
  email: string;
  /** Kept current: the crawl changes it on the settings page. */
  password: string;
  isSuperAdmin: boolean;
}
const MEMBER: Actor & { username: string } = {
  label: 'custom role',
  username: `crawl.member.${tag}`,
  email: `crawl.member.${tag}@acme.test`,
  password: 'Crawl-Member-Passw0rd!',
  isSuperAdmin: false,
};
const ADMIN: Actor & { username: string } = {
  label: 'tenant admin',
  username: `crawl.admin.${tag}`,
  email: `crawl.admin.${tag}@acme.test`,
  password: 'Crawl-Admin-Passw0rd!',
  isSuperAdmin: false,
};
const ROOT: Actor = { label: 'super admin', ...SUPER_ADMIN, isSuperAdmin: true };
/** A second tenant admin, wider than the member; the invitation is left pending (Resend invite). */
const SECOND_ADMIN = { username: `crawl.admin2.${tag}`, email: `crawl.admin2.${tag}@acme.test` };

const grant = (feature: keyof typeof FEATURES, ...permissionScopes: string[]) => ({
  featureId: FEATURES[feature].id,
  permissionScopes,
});
const MEMBER_ROLE = `Crawl Member ${tag}`;
/** Read-only features, creating without updating, roles read-only, support create-only. */
const MEMBER_SCOPES = [
  grant('dashboard', 'READ'),
  grant('users', 'READ', 'CREATE', 'UPDATE'),
  grant('roles', 'READ'),
  grant('positions', 'READ', 'CREATE'),
  grant('support', 'CREATE'),
];
/** Wider than the member's role, held by nobody. */
const WIDE_ROLE = `Crawl Wide ${tag}`;
const WIDE_SCOPES = [
  ...MEMBER_SCOPES.slice(0, 2),
  grant('roles', 'READ', 'UPDATE'),
  grant('positions', 'READ', 'CREATE', 'UPDATE'),
  grant('support', 'READ', 'CREATE'),
];
/** Wider than the tenant admin's role (Organization Management CREATE): only the super admin makes it. */
const TOP_ROLE = `Crawl Top ${tag}`;
const TOP_SCOPES = [grant('dashboard', 'READ'), grant('organizations', 'READ', 'CREATE')];

let memberRoleId = '';
let secondAdminId = '';

// ---------------------------------------------------------------------------------------------
// The crawl's state and what it watches

type Where = 'main' | 'banner' | 'nav' | 'overlay';
type ControlRole = 'button' | 'link' | 'tab' | 'menuitem';

/** A control as a user finds it again: where, its role and name, and which of its namesakes. */
interface Control {
  where: Where;
  /** Only inside list items showing this text (the super admin's notifications of this tenant). */
  within?: string;
  role: ControlRole;
  name: string;
  nth: number;
  /** Why it is not clicked, when it is not. */
  skip?: string;
  /**
   * For a control in a dialog or menu: the main area's controls before it opened (the main area is
   * hidden from assistive technology while it is open), to tell what a click there revealed.
   */
  baseline?: Set<string>;
}

interface Crawl {
  page: Page;
  actor: Actor;
  /** What the crawl is doing, named in failure messages. */
  doing: string;
  failures: string[];
  /** Reading the bodies of refused answers. */
  reading: Promise<void>[];
  answers: number;
  clicks: number;
  pages: Set<string>;
  guarded: string[];
  notOffered: string[];
  skipped: Set<string>;
  vanished: string[];
  /** Requests other than GET so far, to tell actions from mere looking. */
  writes: number;
  inflight: Set<Request>;
  lastActivity: number;
  serial: number;
  /** The password the settings form is submitting, taken as the actor's once the server accepts it. */
  nextPassword?: string;
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

function startCrawl(page: Page, actor: Actor): Crawl {
  const s: Crawl = {
    page,
    actor,
    doing: 'signing in',
    failures: [],
    reading: [],
    answers: 0,
    clicks: 0,
    pages: new Set(),
    guarded: [],
    notOffered: [],
    skipped: new Set(),
    vanished: [],
    writes: 0,
    inflight: new Set(),
    lastActivity: Date.now(),
    serial: 0,
  };
  const apiPath = (url: string) => {
    const { pathname, search } = new URL(url);
    return pathname.startsWith('/api/') ? `${pathname}${search}` : null;
  };
  page.on('request', (request) => {
    s.inflight.add(request);
    s.lastActivity = Date.now();
    const path = apiPath(request.url());
    if (path && request.method() !== 'GET' && !path.includes('refresh')) s.writes++;
  });
  const done = (request: Request) => {
    s.inflight.delete(request);
    s.lastActivity = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  page.on('response', (response) => {
    const path = apiPath(response.url());
    if (!path) return;
    s.answers++;
    const method = response.request().method();
    if (response.ok() && method === 'PUT' && path === '/api/auth/users/password' && s.nextPassword) {
      s.actor.password = s.nextPassword;
    }
    if (response.status() !== 403) return;
    const doing = s.doing;
    s.reading.push(
      response
        .json()
        .then((body: { message?: string }) => body.message)
        .catch(() => undefined)
        .then((message) => {
          s.failures.push(
            `${s.actor.label} · ${doing} → ${method} ${path} answered 403${message ? ` "${message}"` : ''}`,
          );
        }),
    );
  });
  // File inputs get a small file of the kind they take: the upload reaches the server too.
  page.on('filechooser', async (chooser) => {
    const accept = (await chooser.element().getAttribute('accept')) ?? '';
    await chooser.setFiles(
      accept.includes('image')
        ? { name: 'crawl.png', mimeType: 'image/png', buffer: PNG }
        : { name: 'crawl.pdf', mimeType: 'application/pdf', buffer: PDF },
    );
  });
  return s;
}

/**
 * Waits until no request has been in flight for a short while: what a click starts (a route's
 * code, the page's queries, the action itself) has answered. A request left hanging (a download's)
 * does not hold the crawl past the deadline.
 */
async function settle(s: Crawl, quietMs = 150) {
  const deadline = Date.now() + 15_000;
  while ((s.inflight.size > 0 || Date.now() - s.lastActivity < quietMs) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function goto(s: Crawl, url: string) {
  s.lastActivity = Date.now();
  await s.page.goto(url);
  // A page shows its title, or the guard's refusal.
  await s.page.locator('main h1, main [role=alert]').first().waitFor();
  await settle(s);
}

/**
 * Whether the guard's refusal is on the page and stays there. Leaving the refusal by its own "Back to
 * Dashboard" keeps it on screen until the next page's code has loaded, which a busy machine can take
 * past the crawl's settling: a refusal still there 2 s later is the one a user would meet.
 */
async function guardShown(page: Page): Promise<boolean> {
  const refusal = page.locator('main').getByText(messages.http.forbidden, { exact: true });
  if (!(await refusal.isVisible())) return false;
  return refusal.waitFor({ state: 'hidden', timeout: 2_000 }).then(
    () => false,
    () => true,
  );
}

// ---------------------------------------------------------------------------------------------
// Finding controls

/** Dialogs (confirmations, forms, side panels, the notifications) and menus, portalled to <body>. */
const OVERLAY = '[role=dialog], [role=menu]';

function scopeOf(page: Page, where: Where): Locator {
  if (where === 'main') return page.locator('main');
  if (where === 'banner') return page.getByRole('banner');
  if (where === 'nav') return page.getByRole('navigation', { name: 'Main' });
  // The newest one: a confirmation opened from a menu comes after it in <body>.
  return page.locator(OVERLAY).filter({ visible: true }).last();
}

function locate(page: Page, control: Control): Locator {
  let scope = scopeOf(page, control.where);
  if (control.within) scope = scope.getByRole('listitem').filter({ hasText: control.within });
  return scope.getByRole(control.role, { name: control.name, exact: true }).nth(control.nth);
}

/**
 * The buttons, links, tabs and menu items of an aria snapshot, in document order (the order
 * getByRole counts them in), with whether each is disabled.
 */
function parseSnapshot(snapshot: string): { role: ControlRole; name: string; disabled: boolean }[] {
  const found: { role: ControlRole; name: string; disabled: boolean }[] = [];
  for (const raw of snapshot.split('\n')) {
    let line = raw.trim();
    if (!line.startsWith('- ')) continue;
    line = line.slice(2);
    // YAML quotes a key with ': ' in it ('button "Mark as read: X"'), doubling quotes inside.
    if (line.startsWith("'")) {
      let key = '';
      let i = 1;
      for (; i < line.length; i++) {
        if (line[i] === "'" && line[i + 1] === "'") key += line[i++];
        else if (line[i] === "'") break;
        else key += line[i];
      }
      line = key + line.slice(i + 1);
    }
    const match = /^(button|link|tab|menuitem) "((?:[^"\\]|\\.)*)"(.*)$/.exec(line);
    if (!match) continue;
    found.push({
      role: match[1] as ControlRole,
      name: JSON.parse(`"${match[2]}"`) as string,
      disabled: match[3]!.includes('[disabled]'),
    });
  }
  return found;
}

/** The enabled controls of an area. */
async function controlsIn(s: Crawl, where: Where, within?: string): Promise<Control[]> {
  const scope = scopeOf(s.page, where);
  const parts = within ? await scope.getByRole('listitem').filter({ hasText: within }).all() : [scope];
  const counted = new Map<string, number>();
  const controls: Control[] = [];
  for (const part of parts) {
    for (const found of parseSnapshot(await part.ariaSnapshot())) {
      const namesake = `${found.role} ${found.name}`;
      const nth = counted.get(namesake) ?? 0;
      counted.set(namesake, nth + 1);
      if (!found.disabled) controls.push({ where, within, role: found.role, name: found.name, nth });
    }
  }
  return controls;
}

/** Controls about to be crawled, their links looked at while they are on the page. */
async function judged(s: Crawl, controls: Control[]): Promise<Control[]> {
  for (const control of controls) {
    if (control.role === 'link') control.skip = await whyNotFollowed(s.page, control);
  }
  return controls;
}

/** Links the crawl does not follow: another site, a new tab, a file to save. */
async function whyNotFollowed(page: Page, control: Control): Promise<string | undefined> {
  const link = await locate(page, control).evaluate((el) => ({
    href: el.getAttribute('href') ?? '',
    target: el.getAttribute('target'),
    download: el.hasAttribute('download'),
  }));
  if (link.target === '_blank') return 'opens a new tab (the product, the chatbot, an attachment)';
  if (link.download) return 'saves a file';
  if (new URL(link.href, page.url()).origin !== new URL(page.url()).origin) return 'another site';
  return undefined;
}

const key = (c: Control) => `${c.where} ${c.within ?? ''} ${c.role} ${c.name} ${c.nth}`;

// ---------------------------------------------------------------------------------------------
// Filling forms with plausible values

function valueFor(s: Crawl, type: string, label: string, newPassword: () => string): string {
  const n = ++s.serial;
  const l = label.toLowerCase();
  if (type === 'password') {
    if (!/current/.test(l)) return newPassword();
    // The super administrator is shared with every spec running beside this one; a wrong current
    // password still takes the change to the server, which checks who may ask before the password.
    return s.actor.isSuperAdmin ? 'Not-The-Passw0rd!' : s.actor.password;
  }
  if (type === 'email' || /email/.test(l)) return `crawl.${made}.${n}@acme.test`;
  if (type === 'number') return '1';
  if (type === 'url' || /url/.test(l)) return 'https://crawl.example';
  if (/contact|mobile|phone/.test(l)) return `9${String(Date.now() + n).slice(-9)}`;
  if (/username/.test(l)) return `crawl.${made}.${n}`;
  if (/pincode/.test(l)) return '560025';
  if (/founded/.test(l)) return '2015';
  return `Crawl ${made} ${n}`;
}

/**
 * Fills what an area asks for, as a user would before submitting: list searches get the tenant's
 * tag (so the crawl acts only on this tenant's rows), an organization picker the tenant, a select
 * with nothing chosen its first option, empty text fields a plausible value by their label and type,
 * and a checkbox grid with nothing ticked its first box.
 */
async function fillForm(s: Crawl, where: 'main' | 'overlay') {
  const scope = scopeOf(s.page, where);
  for (const picker of await scope.locator('input[role=combobox]').filter({ visible: true }).all()) {
    if (!(await picker.isEditable()) || (await picker.inputValue()) !== '') continue;
    await picker.fill(tag);
    await s.page.getByRole('option').filter({ hasText: tag }).first().click();
    await settle(s);
  }
  for (const select of await scope.locator('[role=combobox]:not(input)').filter({ visible: true }).all()) {
    if ((await select.getAttribute('aria-disabled')) === 'true') continue;
    if ((await select.innerText()).replace(/\u200b/g, '').trim() !== '') continue;
    await select.click();
    await s.page.getByRole('listbox').waitFor();
    const first = s.page.getByRole('option').first();
    if ((await first.count()) > 0) await first.click();
    else await s.page.keyboard.press('Escape');
    await settle(s);
  }
  let newPassword: string | undefined;
  const takeNewPassword = () => (newPassword ??= s.nextPassword = `Crawl-Passw0rd!${++s.serial}`);
  const fields = scope
    .locator(
      'input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=file]):not([role=combobox]):not([aria-hidden=true]), textarea:not([aria-hidden=true])',
    )
    .filter({ visible: true });
  for (const field of await fields.all()) {
    const info = await field.evaluate((el: HTMLInputElement) => ({
      type: el.type,
      empty: el.value === '',
      editable: !el.readOnly && !el.disabled,
      label: (el.labels?.[0]?.textContent ?? el.getAttribute('aria-label') ?? '').trim(),
    }));
    if (!info.editable || !info.empty) continue;
    if (/^search/i.test(info.label)) {
      const listed = s.page.waitForResponse((r) => r.url().includes(`search=${tag}`));
      await field.fill(tag);
      await listed;
      await settle(s);
      continue;
    }
    await field.fill(valueFor(s, info.type, info.label, takeNewPassword));
  }
  const boxes = scope.locator('input[type=checkbox]:not([disabled])');
  if ((await boxes.count()) > 0 && (await scope.locator('input[type=checkbox]:checked').count()) === 0) {
    await boxes.first().check();
  }
}

// ---------------------------------------------------------------------------------------------
// Clicking

/** A page of the route table, reached the way a user reaches it. */
interface Visit {
  /** Its path in the route table ('' is home). */
  page: string;
  /** How messages name it. */
  name: string;
  /** Brings the browser there; false when this user is not offered the way. */
  open(s: Crawl): Promise<boolean>;
  /** The areas crawled there. */
  areas?: Where[];
}

/** Buttons that only close what is open; nothing of theirs reaches the server. */
const DISMISS = /^(Cancel|Close)$/;
/** Clicks deep enough for a row's menu, its item and the item's confirmation or form. */
const MAX_DEPTH = 3;

/**
 * Clicks a control and checks where it led. `crawl`: a control of the crawl (counted), not a step on
 * the way to one. `deeper`: returns what the click revealed to click next (a dialog's or a menu's
 * controls, or new controls in the page). Null when the control is not there.
 */
async function press(
  s: Crawl,
  control: Control,
  trail: string,
  { crawl, deeper }: { crawl: boolean; deeper: boolean },
): Promise<Control[] | null> {
  const target = locate(s.page, control);
  const there = await target
    .waitFor({ timeout: 3_000 })
    .then(() => target.isEnabled())
    .catch(() => false);
  if (!there) return null;
  const url = s.page.url();
  const before = deeper ? (control.baseline ?? new Set((await controlsIn(s, 'main')).map(key))) : null;
  await s.page.evaluate((selector) => {
    document.querySelectorAll(selector).forEach((el) => el.setAttribute('data-crawl-seen', ''));
  }, OVERLAY);
  const writes = s.writes;
  s.doing = trail;
  s.lastActivity = Date.now();
  await target.click();
  if (crawl) s.clicks++;
  await settle(s);
  if (await guardShown(s.page)) {
    s.failures.push(
      `${s.actor.label} · ${trail} → led to ${new URL(s.page.url()).pathname}, which this user may not open ("${messages.http.forbidden}")`,
    );
  }
  const opened = s.page.locator('[role=dialog]:not([data-crawl-seen]), [role=menu]:not([data-crawl-seen])');
  if ((await opened.filter({ visible: true }).count()) > 0) {
    await fillForm(s, 'overlay');
    if (!before) return [];
    const overlay = scopeOf(s.page, 'overlay');
    // The super administrator's notifications come from every tenant: only this tenant's are touched.
    const shared =
      s.actor.isSuperAdmin && (await overlay.getAttribute('aria-label')) === messages.notifications.title;
    const inside = await controlsIn(s, 'overlay', shared ? tag : undefined);
    return judged(
      s,
      inside
        .filter((c) => !DISMISS.test(c.name) && c.name !== messages.shell.logout)
        .map((c) => ({ ...c, baseline: before })),
    );
  }
  if (!before || s.page.url() !== url || s.writes !== writes) return [];
  const after = await controlsIn(s, 'main');
  const revealed = after.filter((c) => !before.has(key(c)));
  // A toggle (Show password → Hide password) reveals only itself.
  const toggled = revealed.length === 1 && !after.some((c) => key(c) === key(control));
  return toggled ? [] : judged(s, revealed);
}

/** Clicks the way to a page (a row's menu, then Edit); false when a step is not offered. */
async function through(s: Crawl, visit: string, steps: Control[]): Promise<boolean> {
  for (const step of steps) {
    const trail = `${visit}, on the way: "${step.name}"`;
    if ((await press(s, step, trail, { crawl: false, deeper: false })) === null) return false;
  }
  return true;
}

async function openVisit(s: Crawl, visit: Visit): Promise<boolean> {
  s.doing = `opening ${visit.name}`;
  if (!(await visit.open(s))) return false;
  await fillForm(s, 'main');
  return true;
}

const trailOf = (visit: Visit, path: Control[]) =>
  `${visit.name}: ${path.map((c) => `"${c.name}"`).join(' → ')}`;

/**
 * Clicks `control` after `parents`, then everything it reveals, depth first. `inPlace`: the page is
 * already just after `parents` (the first child of a click); otherwise the page is opened again and
 * `parents` clicked again, so each control is judged from the page as a user finds it.
 */
async function explore(s: Crawl, visit: Visit, parents: Control[], control: Control, inPlace: boolean) {
  const trail = trailOf(visit, [...parents, control]);
  const skip = control.skip ?? skipReason(s, visit, control);
  if (skip) {
    s.skipped.add(`"${control.name}" (${skip})`);
    return;
  }
  let children: Control[] | null;
  try {
    if (!inPlace && !((await openVisit(s, visit)) && (await through(s, visit.name, parents)))) {
      s.vanished.push(trail);
      return;
    }
    children = await press(s, control, trail, { crawl: true, deeper: parents.length + 1 < MAX_DEPTH });
  } catch (error) {
    stuck(s, trail, error);
    return;
  }
  if (children === null) {
    s.vanished.push(trail);
    return;
  }
  let first = true;
  for (const child of children) {
    await explore(s, visit, [...parents, control], child, first);
    first = false;
  }
}

/**
 * What is not clicked beyond other sites, new tabs, files to save, and buttons that only close
 * (see whyNotFollowed, DISMISS); Logout is clicked last (crawl()).
 */
function skipReason(s: Crawl, visit: Visit, control: Control): string | undefined {
  // workspace.spec.ts edits the shared super administrator's profile and company and checks them
  // after a reload; saving them from here at the same time would change what it reads back.
  if (
    s.actor.isSuperAdmin &&
    visit.page === 'profile' &&
    (control.name === messages.profile.save || control.name === messages.profile.uploadImage)
  ) {
    return "the shared super administrator's own profile, which workspace.spec.ts edits and checks";
  }
  // Ending sessions signs out browsers other tests (and this crawl) run in; two-factor.spec.ts ends
  // sessions of accounts of its own and checks the browsers are signed out.
  if (SESSION_ENDERS.test(control.name))
    return 'ends sessions other tests run in; two-factor.spec.ts covers it';
  return undefined;
}

const SESSION_ENDERS =
  /^(End all other sessions|End all sessions|End session: .*|Sign out of this browser|Reset two-factor sign-in)$/;

/** Reported with the rest; the crawl goes on with the next control, from the page opened afresh. */
function stuck(s: Crawl, where: string, error: unknown) {
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  s.failures.push(`${s.actor.label} · ${where}: the crawl could not go on: ${reason}`);
}

async function crawlVisit(s: Crawl, visit: Visit) {
  try {
    if (!(await openVisit(s, visit))) {
      s.notOffered.push(visit.name);
      return;
    }
  } catch (error) {
    stuck(s, `opening ${visit.name}`, error);
    return;
  }
  s.pages.add(visit.name);
  if (await guardShown(s.page)) s.guarded.push(visit.name);
  const roots: Control[] = [];
  for (const area of visit.areas ?? ['main']) roots.push(...(await judged(s, await controlsIn(s, area))));
  let first = true;
  for (const root of roots) {
    await explore(s, visit, [], root, first);
    first = false;
  }
}

// ---------------------------------------------------------------------------------------------
// The pages, from the app's own list

const button = (name: string, where: Where = 'main'): Control => ({ where, role: 'button', name, nth: 0 });
const menuitem = (name: string): Control => ({ where: 'overlay', role: 'menuitem', name, nth: 0 });

const byAddress = (page: string, url = `/dashboard/${page}`.replace(/\/$/, '')): Visit => {
  if (page.includes(':')) throw new Error(`the crawl needs a way to open ${page}`);
  return { page, name: url, open: (s) => goto(s, url).then(() => true) };
};

/**
 * The onboarding pages hand data on from the invite form, so they are reached through it; a user
 * who is not offered the form gets the page by its address, as a bookmark would open it.
 */
function onboarding(page: 'subscription' | 'usermanagement/subscription' | 'manualPayment'): Visit {
  const name = `/dashboard/${page} (from the invite form)`;
  return {
    page,
    name,
    async open(s) {
      await goto(s, '/dashboard/inviteuser');
      const next = button(messages.users.continueToSubscription);
      if (!(await locate(s.page, next).isVisible())) {
        await goto(
          s,
          `/dashboard/${page}${page === 'manualPayment' ? '' : `?organizationId=${randomUUID()}`}`,
        );
        return true;
      }
      await fillForm(s, 'main');
      if (!(await through(s, name, [next]))) return false;
      await expect(s.page).toHaveURL(/\/dashboard\/subscription\?organizationId=/);
      if (page === 'usermanagement/subscription') {
        await goto(s, `/dashboard/${page}${new URL(s.page.url()).search}`);
      } else if (page === 'manualPayment') {
        await fillForm(s, 'main');
        if (!(await through(s, name, [button(messages.subscription.manualPayment)]))) return false;
        await expect(s.page).toHaveURL(/\/dashboard\/manualPayment$/);
      }
      return true;
    },
  };
}

const EDIT_ROLE = "/dashboard/addrole (the roles list's Edit of the custom role)";

/** Pages whose address alone does not make them what they are for; every other one is opened by it. */
const WAYS: Record<string, Visit[]> = {
  '': [{ ...byAddress(''), name: 'the shell on /dashboard', areas: ['banner', 'nav'] }, byAddress('')],
  inviteuser: [
    byAddress('inviteuser'),
    {
      page: 'inviteuser',
      name: '/dashboard/inviteuser?edit=<the second tenant admin>',
      open: (s) => goto(s, `/dashboard/inviteuser?edit=${secondAdminId}`).then(() => true),
    },
  ],
  addrole: [
    byAddress('addrole'),
    {
      page: 'addrole',
      name: EDIT_ROLE,
      async open(s) {
        await goto(s, '/dashboard/userroles');
        await fillForm(s, 'main');
        const opened = await through(s, EDIT_ROLE, [
          button(`${messages.roles.actionColumn} for ${MEMBER_ROLE}`),
          menuitem(messages.roles.edit),
        ]);
        if (opened)
          await expect(s.page.getByRole('heading', { name: messages.roles.editHeading })).toBeVisible();
        await settle(s);
        return opened;
      },
    },
  ],
  'userpermissions/:roleId': [
    {
      page: 'userpermissions/:roleId',
      name: '/dashboard/userpermissions/<the custom role>',
      open: (s) => goto(s, `/dashboard/userpermissions/${memberRoleId}`).then(() => true),
    },
  ],
  subscription: [onboarding('subscription')],
  'usermanagement/subscription': [onboarding('usermanagement/subscription')],
  manualPayment: [onboarding('manualPayment')],
  // One import: the first of the kind's history, when there is one (nothing to open otherwise).
  ...Object.fromEntries(
    IMPORT_KINDS.map((kind) => [
      `imports/${kind}/:id`,
      [
        {
          page: `imports/${kind}/:id`,
          name: `/dashboard/imports/${kind}/<the newest import>`,
          async open(s: Crawl) {
            await goto(s, `/dashboard/imports/${kind}?tab=history`);
            const first = s.page.getByRole('main').locator(`a[href*="/imports/${kind}/"]`).first();
            if ((await first.count()) === 0) return false;
            await first.click();
            await settle(s);
            return true;
          },
        },
      ],
    ]),
  ),
};

/** Every page: the ones that declare what they need, and the ones open to every signed-in user. */
const PAGES = ['', ...Object.keys(PAGE_ACCESS), 'profile', 'settings'];
const VISITS: Visit[] = PAGES.flatMap((page) => WAYS[page] ?? [byAddress(page)]);

async function crawl(page: Page, actor: Actor) {
  await login(page, actor.email, actor.password);
  const s = startCrawl(page, actor);
  for (const visit of VISITS) await crawlVisit(s, visit);

  // Logout last: it ends the session the crawl runs in.
  await goto(s, '/dashboard');
  s.doing = 'the user menu: "Logout"';
  await page.getByRole('button', { name: /^Open user menu/ }).click();
  await page.getByRole('menuitem', { name: messages.shell.logout }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
  await settle(s);
  await Promise.all(s.reading);

  const summary = [
    `${actor.label}: ${s.pages.size} pages (${s.guarded.length} refused by the guard: ${s.guarded.join(', ') || 'none'})`,
    `${s.clicks} controls clicked, ${s.answers} API answers checked`,
    `not offered: ${s.notOffered.join(', ') || 'nothing'}`,
    `skipped: ${[...s.skipped].join('; ') || 'nothing'}`,
    `gone before their turn: ${s.vanished.join('; ') || 'nothing'}`,
  ].join('\n  ');
  test.info().annotations.push({ type: 'every action', description: summary });
  expect(s.clicks, 'the crawl found controls to click').toBeGreaterThan(20);
  expect(s.failures, `controls offering what the server refuses to the ${actor.label}`).toEqual([]);
}

// ---------------------------------------------------------------------------------------------

test('the crawl visits every page of the route table', () => {
  const routes = join(test.info().project.testDir, '..', 'apps/web/src/app/routes.tsx');
  const source = readFileSync(routes, 'utf8');
  const start = source.indexOf('export const dashboardChildren');
  const table = source.slice(start, source.indexOf('\n];', start));
  const routed = [...table.matchAll(/path: '([^']+)'/g)].map((m) => m[1]!);
  // The import pages are made per kind from IMPORT_KINDS (path: `imports/${kind}`…).
  for (const [, path] of table.matchAll(/path: `([^`]+)`/g)) {
    routed.push(...IMPORT_KINDS.map((kind) => path!.replace('${kind}', kind)));
  }
  if (table.includes('index: true')) routed.push('');
  expect(routed.length, 'pages read from the route table').toBeGreaterThan(10);
  const visited = new Set(VISITS.map((v) => v.page));
  expect(
    routed.filter((page) => !visited.has(page)),
    'routed pages the crawl misses',
  ).toEqual([]);
  expect(
    PAGES.filter((page) => !routed.includes(page)),
    'crawled pages the route table lacks',
  ).toEqual([]);
});

/**
 * A crawl clicks a few hundred controls, each from the page opened afresh; two browsers at once on
 * a 2-core machine beside the other specs, bound by Chromium's CPU. The super administrator's took
 * 7.1 minutes here with the Renewals page, and CI's machine has run the crawls about 1.9 times slower.
 */
const CRAWL_MS = 1_200_000;

test.describe('every action', () => {
  // Each worker that runs one of these sets up its own tenant (beforeAll). Within a worker they run
  // in this order, so the super administrator's crawl, which deactivates and deletes the tenant's
  // things, comes after the others' on the same tenant.
  test.describe.configure({ mode: 'parallel' });
  test.use({ actionTimeout: 10_000 });

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(90_000);
    const root = await apiAs();
    let adminRoleId: string;
    try {
      const roles = (await root.get('/auth/roles?search=admin&pageSize=100')) as {
        data: { id: string; name: string }[];
      };
      adminRoleId = roles.data.find((r) => r.name === 'admin')!.id;
      await root.post(
        '/auth/onboarding',
        {
          user: { username: ADMIN.username, email: ADMIN.email, mobileNo: '9876543210', ...ORG },
          subscription: tenCreditsSubscription(),
          payment: {
            transactionId: `UTR-CRAWL-${tag}`,
            paymentMethod: 'upi',
            paymentDate: new Date().toISOString().slice(0, 10),
          },
        },
        { 'Idempotency-Key': `every-action-${tag}` },
      );
      await root.post('/auth/roles', {
        name: TOP_ROLE,
        permissions: TOP_SCOPES,
        organizationId: ORG.organizationId,
      });
    } finally {
      await root.dispose();
    }

    const page = await browser.newPage();
    try {
      await setPasswordThroughLink(page, ADMIN.email, ADMIN.password);
      const admin = await apiAs(ADMIN.email, ADMIN.password);
      try {
        const role = (await admin.post('/auth/roles', { name: MEMBER_ROLE, permissions: MEMBER_SCOPES })) as {
          data: { id: string };
        };
        memberRoleId = role.data.id;
        await admin.post('/auth/roles', { name: WIDE_ROLE, permissions: WIDE_SCOPES });
        const invite = (user: { username: string; email: string }, roleId: string) =>
          admin.post('/auth/auth-session/register', { ...user, mobileNo: '9876543211', ...ORG, roleId });
        await invite(MEMBER, memberRoleId);
        const second = (await invite(SECOND_ADMIN, adminRoleId)) as { data: { id: string } };
        secondAdminId = second.data.id;
        await admin.post('/auth/positions', {
          title: `Crawl position ${tag}`,
          department: 'Engineering',
          location: 'Pune',
          openings: 2,
        });
        await admin.post('/auth/support/tickets', { message: `Crawl ticket ${tag}`, type: 'feedback' });
      } finally {
        await admin.dispose();
      }
      await setPasswordThroughLink(page, MEMBER.email, MEMBER.password);
      const member = await apiAs(MEMBER.email, MEMBER.password);
      try {
        await member.post('/auth/support/tickets', { message: `Crawl call back ${tag}`, type: 'callback' });
      } finally {
        await member.dispose();
      }
    } finally {
      await page.close();
    }
  });

  test('a member holding a custom role', async ({ page }) => {
    test.setTimeout(CRAWL_MS);
    await crawl(page, MEMBER);
  });

  test('a tenant admin', async ({ page }) => {
    test.setTimeout(CRAWL_MS);
    await crawl(page, ADMIN);
  });

  test('the super administrator', async ({ page }) => {
    test.setTimeout(CRAWL_MS);
    await crawl(page, ROOT);
  });
});
