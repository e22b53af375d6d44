import { describe, expect, it } from 'vitest';
import { ConfigError, loadEnv } from './env.js';

const PRODUCTION = { NODE_ENV: 'production', PUBLIC_URL: 'https://portal.example.com' };
const KEYS = { RAZORPAY_KEY_ID: 'rzp_live_x', RAZORPAY_KEY_SECRET: 'secret' };

function refusal(source: Record<string, string>): string {
  try {
    loadEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('development defaults', () => {
  it('links to http://localhost:PORT and takes payments through the sandbox', () => {
    const env = loadEnv({ PORT: '4000' });
    expect(env.publicOrigin).toBe('http://localhost:4000');
    expect(env.publicIsHttps).toBe(false);
    expect(env.paymentProvider).toBe('sandbox');
    expect(env.TRUST_PROXY).toBe(false);
  });

  it('counts an empty variable as unset, so an inherited value can be cleared', () => {
    const env = loadEnv({ PUBLIC_URL: '', DATABASE_URL: '', TRUST_PROXY: '', RAZORPAY_KEY_ID: '' });
    expect(env.PUBLIC_URL).toBeUndefined();
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.TRUST_PROXY).toBe(false);
  });

  it('uses Razorpay once both keys are set', () => {
    expect(loadEnv(KEYS).paymentProvider).toBe('razorpay');
    expect(loadEnv({ ...KEYS, PAYMENT_PROVIDER: 'sandbox' }).paymentProvider).toBe('sandbox');
  });
});

describe('production refuses unsafe settings, naming the variable', () => {
  it('without PUBLIC_URL', () => {
    expect(refusal({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' })).toMatch(
      /PUBLIC_URL is required when NODE_ENV=production/,
    );
  });

  it('without Razorpay keys, unless PAYMENT_PROVIDER=sandbox is given on purpose', () => {
    const message = refusal(PRODUCTION);
    expect(message).toMatch(/RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET are required/);
    expect(message).toMatch(/PAYMENT_PROVIDER=sandbox/);
    expect(loadEnv({ ...PRODUCTION, PAYMENT_PROVIDER: 'sandbox' }).paymentProvider).toBe('sandbox');
    expect(loadEnv({ ...PRODUCTION, ...KEYS }).paymentProvider).toBe('razorpay');
  });

  it('names both problems at once', () => {
    const message = refusal({ NODE_ENV: 'production' });
    expect(message).toMatch(/PUBLIC_URL/);
    expect(message).toMatch(/RAZORPAY_KEY_ID/);
  });

  it('makes cookies Secure and sends HSTS for an https address only', () => {
    expect(loadEnv({ ...PRODUCTION, ...KEYS }).publicIsHttps).toBe(true);
    expect(loadEnv({ ...PRODUCTION, ...KEYS, PUBLIC_URL: 'http://intranet.local:8080' }).publicIsHttps).toBe(
      false,
    );
  });
});

describe('refused in any mode', () => {
  it('half a Razorpay key pair, or Razorpay chosen without keys', () => {
    expect(refusal({ RAZORPAY_KEY_ID: 'rzp_test_x' })).toMatch(/set both, or neither/);
    expect(refusal({ PAYMENT_PROVIDER: 'razorpay' })).toMatch(/PAYMENT_PROVIDER=razorpay needs/);
    expect(refusal({ PAYMENT_PROVIDER: 'stripe' })).toMatch(/PAYMENT_PROVIDER/);
  });

  it('a PUBLIC_URL that is not an http(s) origin', () => {
    for (const value of [
      'portal.example.com',
      'ftp://portal.example.com',
      'https://portal.example.com/app',
      'https://u:p@portal.example.com',
      'https://portal.example.com/?x=1',
    ]) {
      expect(refusal({ PUBLIC_URL: value }), value).toMatch(/PUBLIC_URL/);
    }
    expect(loadEnv({ PUBLIC_URL: 'https://portal.example.com/' }).publicOrigin).toBe(
      'https://portal.example.com',
    );
  });

  it('a TRUST_PROXY that would trust a client: true, a hop count, or something not an address', () => {
    for (const value of ['true', '1', '2', '10.0.0.0/33', 'proxy.local', '10.0.0.1,']) {
      expect(refusal({ TRUST_PROXY: value }), value).toMatch(/TRUST_PROXY/);
    }
    expect(loadEnv({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'loopback',
    ]);
  });
});

describe('METRICS_PORT', () => {
  it('is off when unset, and a port of its own when set', () => {
    expect(loadEnv({}).METRICS_PORT).toBeUndefined();
    expect(loadEnv({ METRICS_PORT: '9464' }).METRICS_PORT).toBe(9464);
    expect(refusal({ PORT: '3000', METRICS_PORT: '3000' })).toContain('METRICS_PORT must differ from PORT');
    expect(refusal({ METRICS_PORT: '70000' })).toContain('METRICS_PORT');
  });
});
