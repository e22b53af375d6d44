import { useRef, useState, type ReactNode } from 'react';
import { messages, type OrderCreated, type PaymentOrder, type VerifyPaymentBody } from '@portal/shared';
import { extractErrorMessage } from '../../../lib/error-message';
import { closeSnackbar, enqueueSnackbar } from '../../../lib/snackbar';
import { useVerifyPayment } from '../api/verify-payment';
import { openRazorpayCheckout } from './razorpay-checkout';
import { SandboxCheckoutDialog } from './sandbox-checkout-dialog';

export interface Checkout {
  /**
   * Pays an order the server created: the sandbox's test card form or Razorpay Checkout, then verify;
   * `onVerified` runs once the payment is verified (not when it is abandoned or refused).
   */
  pay: (created: OrderCreated, onVerified?: () => void) => Promise<void>;
  /** The sandbox's checkout dialog while it is open: render it where the button is. */
  dialog: ReactNode;
  verifying: boolean;
}

/**
 * The one way the portal takes an online payment, for credits bought and for a renewal alike: the
 * order's checkout (the sandbox's dialog or Razorpay Checkout), then POST /admin/payment/verify,
 * which refreshes every billing view (the balance, the ledger, the plan and its renewals).
 */
export function useCheckout(): Checkout {
  const verify = useVerifyPayment();
  const [sandboxOrder, setSandboxOrder] = useState<PaymentOrder | null>(null);
  /** What the order being paid in the sandbox's dialog does once verified. */
  const sandboxVerified = useRef<(() => void) | undefined>(undefined);

  const verifyPaid = async (payment: VerifyPaymentBody, onVerified?: () => void) => {
    setSandboxOrder(null);
    const pending = enqueueSnackbar(messages.payment.verifying, { variant: 'info', persist: true });
    try {
      await verify.mutateAsync(payment);
      enqueueSnackbar(messages.payment.verified, { variant: 'success' });
      onVerified?.();
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.fallback.verifyPayment), { variant: 'error' });
    } finally {
      closeSnackbar(pending);
    }
  };

  const pay = async (created: OrderCreated, onVerified?: () => void) => {
    enqueueSnackbar(created.message, { variant: 'success' });
    if (created.checkout.provider === 'sandbox') {
      sandboxVerified.current = onVerified;
      setSandboxOrder(created.order);
      return;
    }
    try {
      const payment = await openRazorpayCheckout(created.order, created.checkout);
      if (payment) await verifyPaid(payment, onVerified);
    } catch (error) {
      enqueueSnackbar(extractErrorMessage(error, messages.fallback.verifyPayment), { variant: 'error' });
    }
  };

  const dialog = sandboxOrder && (
    <SandboxCheckoutDialog
      order={sandboxOrder}
      onPaid={(payment) => verifyPaid(payment, sandboxVerified.current)}
      onClose={() => setSandboxOrder(null)}
    />
  );
  return { pay, dialog, verifying: verify.isPending };
}
