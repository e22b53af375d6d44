/** Typing pauses this long before a search goes to the server. */
export const SEARCH_DEBOUNCE_MS = 300;
