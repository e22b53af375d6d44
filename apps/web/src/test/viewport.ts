import { vi } from 'vitest';

/** The `min-width` and `max-width` bounds of a media query such as MUI's '(max-width:599.95px)'. */
function matches(query: string, width: number): boolean {
  const min = /min-width:\s*([\d.]+)px/.exec(query);
  const max = /max-width:\s*([\d.]+)px/.exec(query);
  return (!min || width >= Number(min[1])) && (!max || width <= Number(max[1]));
}

/**
 * jsdom has no layout and no `matchMedia` (MUI's useMediaQuery then answers false): this gives the
 * window one for a screen `width` px wide. The setup file unstubs it after each test.
 */
export function setViewportWidth(width: number) {
  vi.stubGlobal('matchMedia', (query: string): MediaQueryList => ({
    matches: matches(query, width),
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }));
}
