import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiPage, PageMeta } from '@portal/shared';
import { api } from './api-client';

/** A page of a server-paged list, and the list's filters as its query parameters. */
export interface PageParams {
  page: number;
  pageSize: number;
}

export interface ListPage<T> {
  items: T[];
  meta: PageMeta;
}

/**
 * One server-paged list of the API (`GET path?page&pageSize&…`, answered as `ApiPage`): how to fetch
 * a page, its query options (kept while the next page loads) and its hook. Every list of the app is
 * made here. `key` starts every query of the list, so invalidating it refreshes all its pages;
 * `item` reads each row when the answer needs shaping.
 */
export function pagedList<T, P extends PageParams>(options: {
  key: readonly unknown[];
  path: string;
  item?: (raw: unknown) => T;
  /** 0 to refetch on every visit (lists that change with any action anywhere). */
  staleTime?: number;
}) {
  const fetchPage = async (params: P): Promise<ListPage<T>> => {
    const body = await api.get<ApiPage<unknown>>(options.path, {
      params: Object.fromEntries(Object.entries(params)),
    });
    const raw = Array.isArray(body.data) ? body.data : [];
    return {
      items: options.item ? raw.map(options.item) : (raw as T[]),
      meta: body.meta ?? { page: params.page, pageSize: params.pageSize, total: raw.length },
    };
  };
  const query = (params: P) =>
    queryOptions({
      queryKey: [...options.key, 'list', params],
      queryFn: () => fetchPage(params),
      placeholderData: keepPreviousData,
      ...(options.staleTime === undefined ? {} : { staleTime: options.staleTime }),
    });
  const useList = (params: P, use: { enabled?: boolean } = {}) =>
    useQuery({ ...query(params), enabled: use.enabled ?? true });
  return { key: options.key, fetchPage, query, useList };
}
