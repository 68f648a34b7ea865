import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ApiError } from '../http/api-error.js';

export interface UrlPolicy {
  /** Loopback, private, link-local and other non-public addresses allowed (WEBHOOK_ALLOW_PRIVATE_URLS: tests, private networks). */
  allowPrivate: boolean;
  /** `http://` allowed besides `https://` (outside production, or with private addresses allowed). */
  allowHttp: boolean;
}

/**
 * Whether an address is on the public internet: only ipaddr.js's `unicast` range (which leaves out loopback,
 * private (RFC 1918), link-local (cloud metadata's 169.254.169.254), carrier-grade NAT, unique-local, multicast,
 * reserved, unspecified and the IPv6 ranges that embed an IPv4 address). An IPv4-mapped IPv6 address is judged as
 * the IPv4 it maps. This is the server-side request forgery defence the Standard Webhooks specification asks for
 * (spec/standard-webhooks.md#server-side-request-forgery-ssrf).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/**
 * Why a private address is refused, and how an operator allows them: the setting's name only (it is documented), never
 * whether or how this server is configured otherwise.
 */
const PUBLIC_ONLY = "webhooks are sent to public addresses only on this server (its operator can allow private addresses with WEBHOOK_ALLOW_PRIVATE_URLS=true)";

const refuse = (message: string) => new ApiError('invalid_request', `/body/url ${message}`, { errors: [{ path: '/body/url', message }] });

/**
 * Checks an endpoint's URL when it is created (400 when refused): `https:` (or `http:` where allowed), no user or
 * password, and a host that is not a non-public address or a `localhost` name. A name is resolved only when a
 * delivery is made, and its addresses are checked then, on the connection itself (`publicOnlyLookup`): checking a
 * name here would not stop it from resolving elsewhere later.
 */
export function checkEndpointUrl(raw: string, policy: UrlPolicy): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('is not a URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) throw refuse(policy.allowHttp ? 'must be an http:// or https:// URL' : 'must be an https:// URL');
  if (url.username || url.password) throw refuse('must not hold a user name or password');
  url.hash = '';
  if (!policy.allowPrivate) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (ipaddr.isValid(host) && !isPublicAddress(host)) throw refuse(`names a non-public address (${host}); ${PUBLIC_ONLY}`);
    if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || !host.includes('.') && !ipaddr.isValid(host)) {
      throw refuse(`names a local host (${host}); ${PUBLIC_ONLY}`);
    }
  }
  return url.toString();
}

/** Why a delivery was not sent: its host resolved to no public address. */
export class AddressRefused extends Error {}

/**
 * A `lookup` for http.request that resolves the host and keeps only public addresses, so the connection is made to
 * an address that was checked (no second resolution an attacker's DNS could answer differently). With private
 * addresses allowed, the system's lookup as is.
 */
export function publicOnlyLookup(allowPrivate: boolean): LookupFunction | undefined {
  if (allowPrivate) return undefined;
  return ((hostname: string, options: object, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const allowed = addresses.filter((a) => isPublicAddress(a.address));
      if (allowed.length === 0) return callback(new AddressRefused(`${hostname} resolves to no public address`) as NodeJS.ErrnoException, '');
      if ((options as { all?: boolean }).all) return callback(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  }) as LookupFunction;
}
