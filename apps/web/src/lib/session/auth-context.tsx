import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { LoginResult, SecondStepBody, SessionUser } from '@portal/shared';
import { ApiError, onEnrolmentRequired, onRefreshStateChange } from '../api-client';
import { extractErrorMessage } from '../error-message';
import { currentUserQuery, userQueryKey } from './api/get-user';
import { isSignInChallenge, loginRequest, type SignedIn } from './api/login';
import { logoutRequest } from './api/logout';
import { verifySecondStepRequest } from './api/verify-second-step';
import { clearStoredSession, markJustLoggedIn, settleJustLoggedIn, storedUserId, storeUser } from './storage';

export interface AuthState {
  user: SessionUser | null;
  isAuthenticated: boolean;
  loading: boolean;
  refreshing: boolean;
  /** A stored session is being read back (page load); the sign-in screen waits for it. */
  restoring: boolean;
  /**
   * The stored session's user could not be read for want of an answer (network, timeout) or for a
   * server error: the session is kept, and the error is here for the guard to show with a retry.
   */
  unreachable: unknown;
  error: string | null;
  /** The password step: signs in, or answers the challenge of a second step (no session yet). */
  login(identifier: string, password: string): Promise<LoginResult>;
  /** The second step: the challenge and a code from the authenticator app, or a recovery code. */
  verifySecondStep(body: SecondStepBody): Promise<SessionUser>;
  logout(): Promise<void>;
  /** Forgets this browser's session, which the server has ended already (from the sessions list). */
  forgetSession(): void;
  refetchUser(): Promise<void>;
}

const AuthContext = createContext<AuthState | null>(null);

/**
 * Whether reading the signed-in user failed in a way that says the session or the user is gone (the
 * server answered 401, 403, 404...). No answer, or a server error, says nothing about the session.
 */
function endsSession(error: unknown): boolean {
  return !(error instanceof ApiError) || (error.status !== null && error.status < 500);
}

/**
 * Session state. The user id lives in local storage (`ID`); the user itself is a query,
 * so a reload re-reads it through the API client, which refreshes the session when needed.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [userId, setUserId] = useState<string | null>(() => storedUserId());
  const [refreshing, setRefreshing] = useState(false);
  const [loginPending, setLoginPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const userQuery = useQuery(currentUserQuery(userId));
  // A reload within 10 s of signing in: `justLoggedIn` turns false 10 s after the sign-in itself.
  useEffect(() => settleJustLoggedIn(), []);

  const endLocally = useCallback(() => {
    clearStoredSession();
    setUserId(null);
    queryClient.clear();
  }, [queryClient]);

  useEffect(
    () =>
      onRefreshStateChange((state) => {
        setRefreshing(state === 'started');
        if (state === 'failed') endLocally();
      }),
    [endLocally],
  );

  // A stored id whose user the server refuses (session or user gone) ends the session locally.
  const refused = userQuery.isError && endsSession(userQuery.error);
  useEffect(() => {
    // Reacting to the query's outcome (an external system), not deriving state.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (refused) endLocally();
  }, [refused, endLocally]);

  useEffect(() => {
    if (userQuery.data) storeUser(userQuery.data);
  }, [userQuery.data]);

  /** Runs one step of a sign-in, with its pending flag and its error. */
  const signInStep = useCallback(async <T,>(step: () => Promise<T>): Promise<T> => {
    setLoginPending(true);
    setError(null);
    try {
      return await step();
    } catch (e) {
      setError(extractErrorMessage(e));
      throw e;
    } finally {
      setLoginPending(false);
    }
  }, []);

  // The answer of the last step is the user, with their role: stored locally, no second read.
  const enter = useCallback(
    ({ userId: headerId, user }: SignedIn) => {
      const id = headerId ?? user.id;
      storeUser(user);
      queryClient.setQueryData(userQueryKey(id), user);
      setUserId(id);
      markJustLoggedIn();
    },
    [queryClient],
  );

  const login = useCallback(
    (identifier: string, password: string) =>
      signInStep(async () => {
        const { userId: headerId, result } = await loginRequest(identifier, password);
        if (!isSignInChallenge(result)) enter({ userId: headerId, user: result });
        return result;
      }),
    [signInStep, enter],
  );

  const verifySecondStep = useCallback(
    (body: SecondStepBody) =>
      signInStep(async () => {
        const signedIn = await verifySecondStepRequest(body);
        enter(signedIn);
        return signedIn.user;
      }),
    [signInStep, enter],
  );

  const logout = useCallback(async () => {
    try {
      await logoutRequest();
    } catch {
      // Logout always ends the session locally, even when the call fails.
    }
    endLocally();
  }, [endLocally]);

  // The server refuses every other call until two-factor sign-in is set up: the guard then sends the
  // user to set it up (app/guard.tsx), even when their role came to require it since the user was read.
  useEffect(
    () =>
      onEnrolmentRequired(() =>
        queryClient.setQueryData<SessionUser>(
          userQueryKey(userId),
          (current) =>
            current && { ...current, twoFactor: { ...current.twoFactor, required: true, enabled: false } },
        ),
      ),
    [queryClient, userId],
  );

  const refetchUser = useCallback(async () => {
    await userQuery.refetch();
  }, [userQuery]);

  const user = userId ? (userQuery.data ?? null) : null;
  const restoring = userId !== null && userQuery.isPending && !loginPending;
  const unreachable = userId !== null && userQuery.isError && !refused ? userQuery.error : null;
  const value = useMemo<AuthState>(
    () => ({
      user,
      isAuthenticated: user !== null,
      loading: loginPending || (userId !== null && userQuery.isPending),
      refreshing,
      restoring,
      unreachable,
      error,
      login,
      verifySecondStep,
      logout,
      forgetSession: endLocally,
      refetchUser,
    }),
    [
      user,
      loginPending,
      userId,
      userQuery.isPending,
      refreshing,
      restoring,
      unreachable,
      error,
      login,
      verifySecondStep,
      logout,
      endLocally,
      refetchUser,
    ],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside AuthProvider');
  return value;
}
