import { useCallback, useRef } from 'react';

/** A fresh Idempotency-Key. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // crypto.randomUUID needs a secure context; getRandomValues does not.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * One Idempotency-Key per submission attempt: a retry of the same payload (after a timeout, a lost
 * answer or a failure) reuses the key, so the server answers the first result instead of creating
 * twice; a changed payload, or a success, starts a new attempt.
 */
export function useIdempotencyKey() {
  const attempt = useRef<{ key: string; fingerprint: string } | null>(null);
  const keyFor = useCallback((payload: unknown): string => {
    const fingerprint = JSON.stringify(payload);
    if (!attempt.current || attempt.current.fingerprint !== fingerprint) {
      attempt.current = { key: newIdempotencyKey(), fingerprint };
    }
    return attempt.current.key;
  }, []);
  const settle = useCallback(() => {
    attempt.current = null;
  }, []);
  return { keyFor, settle };
}
