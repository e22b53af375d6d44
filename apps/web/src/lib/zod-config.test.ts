import { describe, expect, it } from 'vitest';
import './zod-config';
import { config, z } from 'zod';

describe('zod under the strict Content-Security-Policy', () => {
  it('runs jitless (no new Function probe) and still parses', () => {
    expect(config().jitless).toBe(true);
    expect(z.object({ name: z.string() }).parse({ name: 'Asha' })).toEqual({ name: 'Asha' });
  });
});
