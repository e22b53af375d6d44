import { config } from 'zod/v4/core';

/**
 * The Content-Security-Policy allows no `eval` (script-src 'self', docs/decisions/013). Zod probes
 * for `new Function` when it builds its first object schema, to compile faster parsers, and the
 * browser reports the refused probe as a violation although zod catches it. `jitless` skips the
 * probe; it must be set before any schema is built, so main.tsx imports this module first. It brings
 * zod's core into the first script (+3.6 KiB gzip), the price of using zod's documented setting.
 */
config({ jitless: true });
