import type { User } from '@portal/shared';
import { pagedList } from '../../../lib/paged-list';

export interface UsersParams {
  page: number;
  pageSize: number;
  search?: string;
  /** A role name or id; the Admin Users screen asks `admin`. */
  role?: string;
  status?: 'active' | 'inactive';
  organizationId?: string;
  sort?: 'username' | 'email' | 'client' | 'createdAt' | 'status';
  order?: 'asc' | 'desc';
}

/** Every users query starts with this key; a change invalidates them all. */
export const usersQueryKey = ['users'] as const;

/** GET /api/auth/users: one page, searched, filtered and sorted by the server. */
export const users = pagedList<User, UsersParams>({ key: usersQueryKey, path: '/auth/users' });
export const useUsers = users.useList;
