import { messages } from '@portal/shared';

export type FieldErrors = Record<string, string[]>;

/** A rule broken by a request. The error handler turns it into `{success: false, message, errors}`. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code: string,
    readonly errors?: FieldErrors,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, errors?: FieldErrors) =>
  new AppError(400, message, 'BAD_REQUEST', errors);
/**
 * The answer to input that broke its schema: the first issue's message, and every issue under its
 * field's dotted path ('_' for the whole input). Every validation error goes through here.
 */
export function invalidInput(issues: readonly { path: readonly PropertyKey[]; message: string }[]): AppError {
  const errors: FieldErrors = {};
  for (const issue of issues) (errors[issue.path.map(String).join('.') || '_'] ??= []).push(issue.message);
  return badRequest(issues[0]?.message ?? messages.http.validation, errors);
}

export const unauthorized = (message: string = messages.http.unauthorized) =>
  new AppError(401, message, 'UNAUTHORIZED');
export const forbidden = (message: string = messages.http.forbidden) =>
  new AppError(403, message, 'FORBIDDEN');
export const notFound = (message: string = messages.http.notFound) => new AppError(404, message, 'NOT_FOUND');
export const conflict = (message: string) => new AppError(409, message, 'CONFLICT');
export const unprocessable = (message: string) => new AppError(422, message, 'UNPROCESSABLE');
export const tooManyRequests = (message: string = messages.http.tooManyRequests) =>
  new AppError(429, message, 'TOO_MANY_REQUESTS');

/**
 * The portal sheds work it cannot take now (a flood of sign-ins, an overloaded process): 503 with
 * Retry-After, so the client comes back a little later instead of everyone slowing down.
 */
export class ServiceBusyError extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    errors?: FieldErrors,
  ) {
    super(503, messages.http.busy, 'SERVICE_BUSY', errors);
  }
}

/** PostgreSQL unique violation, from either driver (drizzle wraps it in `cause`). */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
