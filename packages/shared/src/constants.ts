/** The product's business constants (docs/product.md) and the timings the web app uses. */
export const API_BASE_PATH = '/api';
export const API_TIMEOUT_MS = 10_000;
export const CACHE_LIFETIME_MS = 300_000;
export const RETRY_BASE_DELAY_MS = 1_000;
export const RETRY_MAX_DELAY_MS = 30_000;

export const CSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_LEGACY_COOKIE = 'csrf';
export const CSRF_HEADER = 'X-CSRF-Token';
export const USER_ID_HEADER = 'x-user-id';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

export const ADMIN_USER_PAGE_SIZES = [10, 25, 50] as const;
export const TICKET_PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 50;
export const MOBILE_DIGITS = 10;
export const COUNTRY_CODE = '+91';
export const PASSWORD_MIN_LENGTH = 8;
export const ROLE_NAME_MIN_LENGTH = 3;

export const PASSWORD_BANNER_MS = 3_000;
export const PROFILE_SAVED_MESSAGE_MS = 3_000;
export const REDIRECT_AFTER_SAVE_MS = 1_500;
export const SUBSCRIPTION_PARTIAL_REDIRECT_MS = 3_000;
export const REQUIRED_ROLE_TOAST_MS = 5_000;
export const JUST_LOGGED_IN_MS = 10_000;
export const LOADER_NOT_FOUND_MS = 30_000;
export const PROGRESS_BAR_HEIGHT_PX = 3;
export const PROGRESS_BAR_OPACITY = 0.5;
export const TOAST_MAX_VISIBLE = 3;
export const TOAST_AUTO_HIDE_MS = 2_000;

export const DEFAULT_GST_PERCENT = 18;
export const TAX_INCLUSIVE = true;
export const BILLING_CYCLE = 'MONTHLY';
export const SUBSCRIPTION_STATUS_ACTIVE = 'ACTIVE';
export const INTERVIEW_BOT_PRODUCT = 'AI_INTERVIEW_BOT';
export const INTERVIEW_BOT_PRODUCT_NAME = 'AI Interview Bot';
export const DEMO_TRIAL_OPTIONS = [1, 2, 3, 5, 10] as const;
export const PAYMENT_METHODS = ['bank_transfer', 'cash', 'check', 'upi', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const DEFAULT_PAYMENT_METHOD: PaymentMethod = 'bank_transfer';
export const PAYMENT_STATUSES = [
  'order_created',
  'order_failed',
  'payment_verified',
  'payment_failed',
] as const;
export type PaymentOrderStatus = (typeof PAYMENT_STATUSES)[number];
export const MANUAL_PAYMENT_RECEIVED_BY = 'admin';

export const INVITE_VALID_HOURS = 72;
export const PASSWORD_RESET_VALID_HOURS = 1;
/** RFC 6238 codes: six digits, a new one every 30 seconds, accepted one step either side. */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_WINDOW_STEPS = 1;
export const TOTP_CODE_PATTERN = /^\d{6}$/;
/** Ten one-time recovery codes of two groups of five characters: `k7m2q-9xw4c`. */
export const RECOVERY_CODE_COUNT = 10;
export const RECOVERY_CODE_PATTERN = /^[a-z2-9]{5}-?[a-z2-9]{5}$/i;
/** How long the second step of a sign-in waits for its code. */
export const SIGN_IN_CHALLENGE_MINUTES = 5;
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
export const SUBSCRIPTION_EXPIRY_WARNING_DAYS = 7;

/** Browser storage keys (docs/product.md, "Sign-in and passwords"). */
export const storageKeys = {
  userId: 'ID',
  role: 'Role',
  isSubscription: 'isSubscription',
  client: 'client',
  featuresPermissions: 'FeaturesPermissions',
  paymentId: 'razorpay_payment_id',
  cachePrefix: 'cache:',
  pendingUserData: 'pendingUserData',
  subscriptionData: 'subscriptionData',
  justLoggedIn: 'justLoggedIn',
  /** When justLoggedIn was set (ms since the epoch), so it turns false 10 s after the sign-in. */
  justLoggedInAt: 'justLoggedInAt',
} as const;
