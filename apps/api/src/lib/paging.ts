/** What a list asks for: the page (from 1) and its size. */
export interface PageQuery {
  page: number;
  pageSize: number;
}

/** The rows to skip to reach `page`: the one place paging arithmetic is written. */
export function offsetOf(query: PageQuery): number {
  return (query.page - 1) * query.pageSize;
}

/** One page of a list as the API answers it: `{success, data, meta}`. */
export function pageEnvelope<T>(query: PageQuery, data: T[], total: number) {
  return {
    success: true as const,
    data,
    meta: { page: query.page, pageSize: query.pageSize, total },
  };
}
