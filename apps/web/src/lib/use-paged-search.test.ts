import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PAGE_SIZE } from '@portal/shared';
import { SEARCH_DEBOUNCE_MS, usePagedSearch } from './use-paged-search';

beforeEach(() => {
  vi.useFakeTimers();
});

describe('usePagedSearch', () => {
  it('keeps a page turned to right after the list opens', () => {
    const { result } = renderHook(() => usePagedSearch());
    act(() => result.current.setPage(1));
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS * 2));
    expect(result.current.page).toBe(1);
    expect(result.current.search).toBe('');
  });

  it('searches once typing pauses, from the first page', () => {
    const { result } = renderHook(() => usePagedSearch());
    act(() => result.current.setPage(2));
    act(() => result.current.setSearchInput(' car '));
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1));
    expect(result.current).toMatchObject({ search: '', page: 2 });
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toMatchObject({ search: 'car', page: 0 });
  });

  it('keeps the page when a term is typed and taken back before it settles', () => {
    const { result } = renderHook(() => usePagedSearch());
    act(() => result.current.setPage(3));
    act(() => result.current.setSearchInput('x'));
    act(() => result.current.setSearchInput(''));
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS * 2));
    expect(result.current).toMatchObject({ search: '', page: 3 });
  });

  it('starts again at the first page with a new page size', () => {
    const { result } = renderHook(() => usePagedSearch());
    expect(result.current.pageSize).toBe(DEFAULT_PAGE_SIZE);
    act(() => result.current.setPage(2));
    act(() => result.current.setPageSize(25));
    expect(result.current).toMatchObject({ page: 0, pageSize: 25 });
  });
});
