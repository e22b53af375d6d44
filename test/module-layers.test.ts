import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Decision 024's layers: a module imports only the front doors of modules in a lower layer. Lint
 * refuses cycles and imports past a front door; this holds the order itself, so a new arrow that
 * runs back up fails here even before it closes a cycle.
 */
const LAYERS: Record<string, number> = {
  files: 1,
  features: 1,
  notifications: 1,
  activity: 1,
  organizations: 1,
  platform: 1,
  roles: 2,
  sessions: 2,
  mail: 2,
  'two-factor': 3,
  password: 3,
  users: 4,
  auth: 5,
  profile: 5,
  companies: 6,
  positions: 5,
  support: 5,
  // Imports create records as each kind's own module does (users, positions, billing's onboarding).
  imports: 8,
  dashboard: 5,
  invoices: 6,
  billing: 7,
};

const modulesDir = fileURLToPath(new URL('../apps/api/src/modules/', import.meta.url));
const moduleNames = readdirSync(modulesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mjs)$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The modules whose front door a module's source imports. */
function importedModules(name: string): string[] {
  const found = new Set<string>();
  for (const file of sourceFiles(join(modulesDir, name))) {
    for (const [, other] of readFileSync(file, 'utf8').matchAll(/from '\.\.\/([a-z-]+)\/index\.js'/g)) {
      found.add(other!);
    }
  }
  return [...found].sort();
}

describe('module layers (decision 024)', () => {
  it('names every module in a layer', () => {
    expect(moduleNames.filter((name) => !(name in LAYERS))).toEqual([]);
  });

  it('every module imports only modules of a lower layer', () => {
    const upward = moduleNames.flatMap((name) =>
      importedModules(name)
        .filter((other) => !(LAYERS[other]! < LAYERS[name]!))
        .map((other) => `${name} (layer ${LAYERS[name]}) imports ${other} (layer ${LAYERS[other]})`),
    );
    expect(upward).toEqual([]);
  });
});
