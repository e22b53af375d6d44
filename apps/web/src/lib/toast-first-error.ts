import type { FieldErrors, FieldValues } from 'react-hook-form';
import { enqueueSnackbar } from './snackbar';

/**
 * For forms that report one broken rule at a time as an error toast (invite, edit and register):
 * react-hook-form's invalid-submit handler that toasts the first failing field in `order`, the
 * order of the form's schema.
 */
export function toastFirstError<T extends FieldValues>(order: readonly (keyof T & string)[]) {
  return (errors: FieldErrors<T>) => {
    const message = order.map((name) => errors[name]?.message).find((m) => typeof m === 'string');
    if (message) enqueueSnackbar(message, { variant: 'error' });
  };
}
