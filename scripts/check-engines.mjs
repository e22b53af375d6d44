// Fails when a package in package-lock.json has an `engines.node` that excludes a Node version the
// root package.json promises. npm only warns (EBADENGINE), and only for the Node it runs on; this
// checks the lowest release of every promised major, where floors such as ">=22.12" bite.
import { readFileSync } from 'node:fs';
import semver from 'semver';

const readJson = (path) => JSON.parse(readFileSync(new URL(`../${path}`, import.meta.url), 'utf8'));
// As npm checks engines (npm-install-checks): prereleases count, and an unreadable range fails.
const asNpm = { includePrerelease: true };

/** The lowest version of each major `range` allows, up to the highest major it names (">=24" gives 24.0.0). */
function lowestOfEachMajor(range) {
  const parsed = new semver.Range(range);
  const lowest = semver.minVersion(parsed);
  if (!lowest) throw new Error(`engines.node "${range}" allows no version`);
  const alternatives = parsed.set.map((comparators) => comparators.map((c) => c.value).join(' ') || '*');
  const named = parsed.set.flat().map((c) => c.semver.major ?? lowest.major);
  const versions = [];
  for (let major = lowest.major; major <= Math.max(...named); major++) {
    const inMajor = alternatives
      .map((alternative) => semver.minVersion(`${alternative} >=${major}.0.0 <${major + 1}.0.0-0`))
      .filter((version) => version !== null);
    if (inMajor.length > 0) versions.push(semver.sort(inMajor)[0].version);
  }
  return versions;
}

const range = readJson('package.json').engines?.node;
if (!range) {
  console.error('package.json has no engines.node');
  process.exit(1);
}
const promised = lowestOfEachMajor(range);
const offenders = new Set();
for (const [path, entry] of Object.entries(readJson('package-lock.json').packages)) {
  // The root's range is the promise itself; an engines array (old manifests) is ignored, as npm does.
  const wanted = path === '' ? undefined : entry.engines?.node;
  if (typeof wanted !== 'string') continue;
  const excluded = promised.filter((version) => !semver.satisfies(version, wanted, asNpm));
  if (excluded.length > 0)
    offenders.add(
      `  ${entry.name ?? path.split('node_modules/').pop()}@${entry.version} wants node "${wanted}": excludes ${excluded.join(', ')}`,
    );
}
if (offenders.size > 0) {
  console.error(`Packages that exclude a Node version package.json promises ("${range}"):`);
  console.error([...offenders].join('\n'));
  process.exit(1);
}
console.log(
  `Every locked package supports Node ${promised.join(', ')} (package.json engines.node "${range}")`,
);
