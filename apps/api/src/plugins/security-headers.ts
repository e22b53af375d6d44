import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import { isApiRoute } from './access.js';

/** Where Razorpay Checkout loads its script, frames and calls from, allowed only when it takes payments. */
const RAZORPAY = {
  script: ['https://checkout.razorpay.com'],
  frame: ['https://api.razorpay.com', 'https://checkout.razorpay.com'],
  connect: ['https://api.razorpay.com', 'https://lumberjack.razorpay.com'],
  img: ['https://cdn.razorpay.com'],
};

export interface SecurityHeadersOptions {
  /** The public address is https: send HSTS and upgrade any http subresource. */
  https: boolean;
  razorpay: boolean;
}

function helmetOptions(options: SecurityHeadersOptions): HelmetOptions {
  const extra = (list: string[]) => (options.razorpay ? list : []);
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...extra(RAZORPAY.script)],
        // MUI's emotion inserts <style> elements at run time; scripts stay 'self' only.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...extra(RAZORPAY.img)],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...extra(RAZORPAY.connect)],
        frameSrc: options.razorpay ? RAZORPAY.frame : ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(options.https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // The same as frame-ancestors 'none', for browsers that predate it.
    frameguard: { action: 'deny' },
    strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // Never a URL (a reset link's token) to another site; full within the portal, where the CSRF
    // check needs a real Origin (no-referrer would make browsers send `Origin: null`).
    referrerPolicy: { policy: 'same-origin' },
  };
}

/**
 * The headers helmet's middleware sets for `options`, taken once at start: none depends on the
 * request (no nonces). Running helmet's middleware on every request, as @fastify/helmet does (it even
 * rebuilds it per request), cost a small route more than half its throughput (docs/decisions/013).
 */
function staticHelmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * Security headers on every answer (pages, assets, JSON, files, exports, errors), and
 * `Cache-Control: no-store` on every API answer unless its route sets its own: API answers carry
 * personal data, which no shared cache or back button should keep.
 */
async function securityHeaders(app: FastifyInstance, options: SecurityHeadersOptions) {
  const headers = staticHelmetHeaders(helmetOptions(options));
  const apiHeaders = {
    ...staticHelmetHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
      },
      crossOriginOpenerPolicy: false,
      originAgentCluster: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
      frameguard: { action: 'deny' },
      strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      referrerPolicy: { policy: 'same-origin' },
    }),
    'cache-control': 'no-store',
  };
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiRoute(request.url) ? apiHeaders : headers);
    done();
  });
}

export default fp(securityHeaders, { name: 'security-headers' });
