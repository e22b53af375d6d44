import { messages } from '@portal/shared';

/** The message, then the errors array, then the errors object, then raw JSON, then the error's own text. */
export function messageFromBody(body: unknown): string | null {
  if (body && typeof body === 'object') {
    const b = body as { message?: unknown; errors?: unknown };
    if (typeof b.message === 'string' && b.message) return b.message;
    if (Array.isArray(b.errors) && b.errors.length > 0) {
      return b.errors
        .map((e) => (typeof e === 'string' ? e : ((e as { message?: string }).message ?? JSON.stringify(e))))
        .join(', ');
    }
    if (b.errors && typeof b.errors === 'object') {
      const values = Object.values(b.errors as Record<string, unknown>)
        .flat()
        .filter(Boolean);
      if (values.length > 0) return values.map(String).join(', ');
    }
    if (Object.keys(b).length > 0) return JSON.stringify(body);
  }
  return null;
}

export function extractErrorMessage(error: unknown, fallback: string = messages.common.unexpected): string {
  if (error && typeof error === 'object' && 'body' in error) {
    const fromBody = messageFromBody((error as { body: unknown }).body);
    if (fromBody) return fromBody;
  }
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
