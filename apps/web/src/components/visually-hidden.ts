/**
 * `sx` for text that only screen readers get (the usual clip pattern). Lengths are strings: in `sx`
 * a number up to 1 is a fraction (width: 1 is 100%) and margin counts spacing units.
 */
export const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;
