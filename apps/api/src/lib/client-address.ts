import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * The client's address for rate limits and the session list: Fastify's `request.ip`, which reads
 * X-Forwarded-For only through the proxies TRUST_PROXY names. Should a trusted hop still pass on a
 * value that is not an address, the socket's own address stands in, so every stored address is an IP.
 */
export function clientAddress(request: FastifyRequest): string {
  if (isIP(request.ip) !== 0) return request.ip;
  return request.socket.remoteAddress ?? '0.0.0.0';
}
