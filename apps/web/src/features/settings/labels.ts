/** Texts used only by Settings (texts docs/product.md names are in packages/shared messages.ts). */
export const labels = {
  taxDetails: 'Tax details',
  taxDetailsIntro:
    'Every tax invoice and credit note carries these details; a change applies to the ones issued after it.',
  saveTaxDetails: 'Save tax details',
} as const;
