import { describe, expect, it } from 'vitest';
import { identitySnapshot, identityVersionOf, latestIdentitySnapshot } from './cache.repo.js';

describe('identitySnapshot', () => {
  it('keeps one snapshot per database handle, replaced by a newer version, never by an older one', () => {
    const db = {};
    const v5 = identitySnapshot(db, 5);
    v5.userCounts.set('k', 1);
    expect(identitySnapshot(db, 5)).toBe(v5);
    const v4 = identitySnapshot(db, 4);
    expect(v4).not.toBe(v5);
    expect(v4.userCounts.get('k')).toBeUndefined();
    expect(latestIdentitySnapshot(db)).toBe(v5);
    const v6 = identitySnapshot(db, 6);
    expect(latestIdentitySnapshot(db)).toBe(v6);
    expect(v6.userCounts.get('k')).toBeUndefined();
    expect(identitySnapshot({}, 6)).not.toBe(v6);
  });

  it('keeps nothing when no version was read (its row missing)', () => {
    const db = {};
    identitySnapshot(db, 3);
    const missing = identityVersionOf(null);
    expect(missing).toBeNaN();
    const a = identitySnapshot(db, missing);
    a.userCounts.set('k', 1);
    expect(identitySnapshot(db, missing)).not.toBe(a);
    expect(latestIdentitySnapshot(db)!.version).toBe(3);
    expect(identityVersionOf('12')).toBe(12);
    expect(identityVersionOf(12)).toBe(12);
  });

  it('forgets the oldest entries beyond its bound', () => {
    const snapshot = identitySnapshot({}, 1);
    for (let i = 0; i < 2_001; i++) snapshot.userCounts.set(`k${i}`, i);
    expect(snapshot.userCounts.size).toBe(2_000);
    expect(snapshot.userCounts.has('k0')).toBe(false);
    expect(snapshot.userCounts.get('k2000')).toBe(2000);
  });
});
