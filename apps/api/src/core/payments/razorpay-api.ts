/**
 * The part of Razorpay's API the portal calls, as the official SDK (`razorpay`) exposes it: the SDK
 * satisfies this type (razorpay-provider.ts assigns one to it), and the tests' Razorpay emulator
 * implements it, since the SDK's host cannot be pointed at a local server.
 */

export interface RazorpayOrderEntity {
  id: string;
  amount: number | string;
  receipt?: string | null;
  status: 'created' | 'attempted' | 'paid';
}

export interface RazorpayPaymentEntity {
  id: string;
  amount: number | string;
  status: 'created' | 'authorized' | 'captured' | 'refunded' | 'failed';
  order_id?: string | null;
  token_id?: string | null;
  error_description?: string | null;
}

interface List<T> {
  items: Array<T>;
}

export interface RazorpayApi {
  orders: {
    create(params: {
      amount: number;
      currency: string;
      receipt?: string;
      notes?: Record<string, string>;
      payment_capture?: boolean;
      customer_id?: string;
      method?: 'card';
      token?: { max_amount?: number; expire_at?: number; frequency?: string };
    }): Promise<RazorpayOrderEntity>;
    all(params?: { receipt?: string; count?: number }): Promise<List<RazorpayOrderEntity>>;
    fetchPayments(orderId: string): Promise<List<RazorpayPaymentEntity>>;
  };
  payments: {
    fetch(paymentId: string): Promise<RazorpayPaymentEntity>;
    createRecurringPayment(params: {
      email: string;
      contact: string | number;
      amount: number;
      currency: string;
      order_id: string;
      customer_id: string;
      token: string;
      recurring: boolean | 1 | 0 | string;
      description: string;
      notes: Record<string, string>;
    }): Promise<{ razorpay_payment_id?: string }>;
    refund(
      paymentId: string,
      params: { amount?: number; receipt?: string; notes?: Record<string, string> },
    ): Promise<{ id: string; amount?: number | string | null }>;
  };
  customers: {
    create(params: {
      name?: string;
      email?: string;
      contact?: string | number;
      fail_existing?: 0 | 1 | boolean;
      notes?: Record<string, string>;
    }): Promise<{ id: string }>;
    fetch(
      customerId: string,
    ): Promise<{ id: string; email?: string | null; contact?: string | number | null }>;
    deleteToken(customerId: string, tokenId: string): Promise<unknown>;
  };
}

/** What an SDK call that Razorpay refused rejects with: its HTTP status and error body. */
export function razorpayRefusal(error: unknown): { statusCode: number; description: string } | null {
  const e = error as { statusCode?: unknown; error?: { description?: unknown } } | null;
  if (typeof e?.statusCode !== 'number' || e.statusCode < 400 || e.statusCode >= 500) return null;
  const description = typeof e.error?.description === 'string' ? e.error.description : 'Declined';
  return { statusCode: e.statusCode, description };
}
