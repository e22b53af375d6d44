import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toastFirstError } from './toast-first-error';

const toast = vi.hoisted(() => vi.fn());
vi.mock('./snackbar', () => ({ enqueueSnackbar: toast }));

beforeEach(() => toast.mockClear());

describe('toastFirstError', () => {
  it('toasts the first failing field in the given order, not in the order the errors came', () => {
    const onInvalid = toastFirstError<{ email: string; username: string; client: string }>([
      'email',
      'username',
      'client',
    ]);
    onInvalid({
      client: { type: 'too_small', message: 'Company name is required' },
      username: { type: 'invalid_format', message: 'Invalid username' },
    });
    expect(toast).toHaveBeenCalledTimes(1);
    expect(toast).toHaveBeenCalledWith('Invalid username', { variant: 'error' });
  });

  it('says nothing when no listed field failed', () => {
    toastFirstError<{ email: string }>(['email'])({});
    expect(toast).not.toHaveBeenCalled();
  });
});
