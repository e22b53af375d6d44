import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Decision 024: every exported service function is `fn(deps: Deps, actor, input?)`, the actor one of
 * core/actor.ts's three kinds; nothing but routes and plugins sees Fastify. Read from the types, so
 * a new service with another shape fails here.
 */
const apiRoot = fileURLToPath(new URL('../apps/api/', import.meta.url));
const modulesDir = join(apiRoot, 'src/modules');
const ACTOR_KINDS = new Set(['Actor', 'Visitor', 'SystemActor']);
/** Functions a front door exports that are not services, and why. */
const NOT_SERVICES: Record<string, string> = {
  mailAttachmentRenderer: 'a factory app.ts hands to the mail outbox when it builds deps',
  housekeepingJob: "a factory of the housekeeping job's definition, given every module's pruner",
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const sourceFiles = filesUnder(modulesDir);
const serviceFiles = sourceFiles.filter((file) => file.endsWith('.service.ts'));
const frontDoors = sourceFiles.filter(
  (file) => file.endsWith('/index.ts') && file !== join(modulesDir, 'index.ts'),
);

function contractProblems(): string[] {
  const program = ts.createProgram([...serviceFiles, ...frontDoors], {
    strict: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const problems: string[] = [];

  const actorKindsOf = (type: ts.Type): string[] =>
    (type.isUnion() ? type.types : [type]).map((t) => (t.aliasSymbol ?? t.getSymbol())?.getName() ?? '?');

  const check = (name: string, where: string, signature: ts.Signature) => {
    const [deps, actor, ...rest] = signature.getParameters();
    const typeOf = (p: ts.Symbol) => checker.getTypeOfSymbol(p);
    if (!deps || checker.typeToString(typeOf(deps)) !== 'Deps') {
      problems.push(`${where} ${name}: first parameter must be deps: Deps`);
      return;
    }
    const kinds = actor ? actorKindsOf(typeOf(actor)) : [];
    if (!actor || kinds.some((kind) => !ACTOR_KINDS.has(kind))) {
      problems.push(
        `${where} ${name}: second parameter must be the actor (Actor | Visitor | SystemActor), is ${kinds}`,
      );
    }
    if (rest.length > 1) problems.push(`${where} ${name}: one input parameter at most, has ${rest.length}`);
  };

  // Every function a service file or a front door exports, but routes plugins and NOT_SERVICES.
  for (const file of [...serviceFiles, ...frontDoors]) {
    const source = program.getSourceFile(file)!;
    const moduleSymbol = checker.getSymbolAtLocation(source);
    if (!moduleSymbol) continue;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      if (!(symbol.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Variable))) continue;
      const name = exported.getName();
      if (file.endsWith('/index.ts') && name.endsWith('Routes')) continue;
      const signatures = checker.getTypeOfSymbol(symbol).getCallSignatures();
      if (signatures.length === 0) continue;
      if (file.endsWith('/index.ts') && name in NOT_SERVICES) continue;
      const declaredIn = symbol.declarations?.[0]?.getSourceFile().fileName ?? file;
      for (const signature of signatures) check(name, relative(apiRoot, declaredIn), signature);
    }
  }
  return [...new Set(problems)];
}

describe('the one service contract (decision 024)', () => {
  it('every exported service function is fn(deps, actor, input?)', () => {
    expect(serviceFiles.length).toBeGreaterThan(20);
    expect(contractProblems()).toEqual([]);
  });

  it('no module file but a routes file or the route table names FastifyInstance', () => {
    const routeTable = join(modulesDir, 'index.ts');
    const offenders = sourceFiles.filter(
      (file) =>
        !file.endsWith('.routes.ts') &&
        file !== routeTable &&
        /\bFastifyInstance\b/.test(readFileSync(file, 'utf8')),
    );
    expect(offenders.map((file) => relative(apiRoot, file))).toEqual([]);
  });
});
