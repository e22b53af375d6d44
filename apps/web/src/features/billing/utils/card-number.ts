/** `4111 1111 1111 1111`: a card number as typed, digits only, at most 16, in groups of four. */
export function groupDigits(value: string): string {
  return value
    .replace(/\D/g, '')
    .slice(0, 16)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}
