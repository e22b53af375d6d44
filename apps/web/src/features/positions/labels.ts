/** Texts used only by Positions (texts docs/product.md names are in packages/shared messages.ts). */
export const labels = {
  importPositions: 'Import positions',
} as const;
