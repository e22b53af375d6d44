import { useEffect, useState } from 'react';
import { DEFAULT_PAGE_SIZE } from '@portal/shared';

/** Typing pauses this long before a search goes to the server. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The search box, page (zero-based) and page size of a server-paged list. The search settles
 * SEARCH_DEBOUNCE_MS after the last keystroke; a settled search or a new page size starts again at
 * the first page.
 */
export function usePagedSearch() {
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [pageSize, setSize] = useState<number>(DEFAULT_PAGE_SIZE);

  useEffect(() => {
    const settled = searchInput.trim();
    // Nothing new to search (the first render, or a term typed and taken back): the page stays. Settling
    // anyway sent a user who turned the page within SEARCH_DEBOUNCE_MS of opening the list back to 1.
    if (settled === search) return;
    const timer = setTimeout(() => {
      setSearch(settled);
      setPage(0);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchInput, search]);

  const setPageSize = (size: number) => {
    setSize(size);
    setPage(0);
  };
  return { searchInput, setSearchInput, search, page, setPage, pageSize, setPageSize };
}
