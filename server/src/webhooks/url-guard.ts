import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ApiError } from '../http/api-error.js';

export interface UrlPolicy {
  /** Loopback and private (RFC 1918, unique-local) addresses allowed (WEBHOOK_ALLOW_PRIVATE_URLS: tests, private networks). */
  allowPrivate: boolean;
  /** `http://` allowed besides `https://` (outside production, or with private addresses allowed). */
  allowHttp: boolean;
  /** Ranges the operator named (WEBHOOK_ALLOWED_CIDRS), allowed besides public addresses. */
  allowedCidrs?: string[];
}

/** Which addresses a delivery may connect to: the part of UrlPolicy that the connection itself checks. */
export interface AddressPolicy {
  allowPrivate: boolean;
  allowedCidrs?: string[];
}

/**
 * Addresses no setting allows: cloud metadata services that sit outside the link-local range (Alibaba's
 * 100.100.100.200, AWS's IPv6 fd00:ec2::254); the link-local ranges themselves are refused by range.
 */
const METADATA_ADDRESSES = new Set(['100.100.100.200', 'fd00:ec2::254']);
/** Host names of metadata services, refused as names too (they resolve to link-local addresses). */
const METADATA_HOSTS = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);
/** Ranges never connected to: link-local (169.254.0.0/16 with its metadata service, fe80::/10), and non-unicast. */
const NEVER = new Set(['linkLocal', 'unspecified', 'multicast', 'broadcast', 'reserved']);
/** What WEBHOOK_ALLOW_PRIVATE_URLS=true adds: loopback, RFC 1918, unique-local (fc00::/7). */
const PRIVATE = new Set(['loopback', 'private', 'uniqueLocal']);

/** The address as judged: an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) as the IPv4 it maps. */
function normalised(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!ipaddr.isValid(address)) return null;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed;
}

/**
 * The deprecated IPv4-compatible form `::a.b.c.d` (::/96, RFC 4291 2.5.5.1): ipaddr.js calls `::7f00:1` (what a URL
 * makes of `[::127.0.0.1]`) unicast, so it is refused by its form, as no public host is reached that way.
 */
function ipv4Compatible(parsed: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (parsed.kind() !== 'ipv6') return false;
  const parts = (parsed as ipaddr.IPv6).parts;
  // `::` and `::1` are the unspecified and loopback addresses, judged as such.
  return parts.slice(0, 6).every((p) => p === 0) && !(parts[6] === 0 && parts[7]! <= 1);
}

/**
 * Whether an address is on the public internet: only ipaddr.js's `unicast` range (which leaves out loopback,
 * private (RFC 1918), link-local (cloud metadata's 169.254.169.254), carrier-grade NAT, unique-local, multicast,
 * reserved, unspecified and the IPv6 ranges that embed an IPv4 address). An IPv4-mapped IPv6 address is judged as
 * the IPv4 it maps; the IPv4-compatible form is not public. This is the server-side request forgery defence the
 * Standard Webhooks specification asks for (spec/standard-webhooks.md#server-side-request-forgery-ssrf).
 */
export function isPublicAddress(address: string): boolean {
  const parsed = normalised(address);
  return parsed !== null && !ipv4Compatible(parsed) && parsed.range() === 'unicast' && !METADATA_ADDRESSES.has(parsed.toString());
}

/**
 * Whether a delivery may connect to an address: a public one; one in a range the operator named; with private
 * addresses allowed, loopback and private ones. Never a link-local or metadata address, whatever the settings say
 * (a range named that covers one does not let it through).
 */
export function addressAllowed(address: string, policy: AddressPolicy): boolean {
  const parsed = normalised(address);
  if (!parsed || ipv4Compatible(parsed) || METADATA_ADDRESSES.has(parsed.toString())) return false;
  const range = parsed.range();
  if (NEVER.has(range)) return false;
  if (range === 'unicast') return true;
  if (policy.allowPrivate && PRIVATE.has(range)) return true;
  return (policy.allowedCidrs ?? []).some((cidr) => {
    const [net, bits] = ipaddr.parseCIDR(cidr);
    return net.kind() === parsed.kind() && parsed.match([net, bits] as never);
  });
}

/**
 * Why a private address is refused, and how an operator allows them: the setting's name only (it is documented), never
 * whether or how this server is configured otherwise.
 */
const PUBLIC_ONLY = "webhooks are sent to public addresses only on this server (its operator can allow private addresses with WEBHOOK_ALLOW_PRIVATE_URLS=true or name ranges in WEBHOOK_ALLOWED_CIDRS)";
/** Why a link-local or metadata address is refused: no setting allows it. */
const NEVER_ALLOWED = 'webhooks are never sent to link-local or cloud metadata addresses';

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
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const hostName = host.replace(/\.$/, '');
  if (METADATA_HOSTS.has(hostName)) throw refuse(`names a cloud metadata host (${host}); ${NEVER_ALLOWED}`);
  if (ipaddr.isValid(host)) {
    if (addressAllowed(host, policy)) return url.toString();
    const parsed = normalised(host)!;
    if (ipv4Compatible(parsed) || METADATA_ADDRESSES.has(parsed.toString()) || NEVER.has(parsed.range())) throw refuse(`names a link-local, metadata or reserved address (${host}); ${NEVER_ALLOWED}`);
    throw refuse(`names a non-public address (${host}); ${PUBLIC_ONLY}`);
  }
  if (!policy.allowPrivate && (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || !host.includes('.'))) {
    throw refuse(`names a local host (${host}); ${PUBLIC_ONLY}`);
  }
  return url.toString();
}

/** Why a delivery was not sent: its host resolved to no public address. */
export class AddressRefused extends Error {}

/**
 * A `lookup` for http.request that resolves the host and keeps only the addresses the policy allows, so the
 * connection is made to an address that was checked (no second resolution an attacker's DNS could answer
 * differently). With private addresses allowed too: link-local and metadata addresses are never connected to.
 */
export function publicOnlyLookup(policy: AddressPolicy | boolean): LookupFunction {
  const allowed = typeof policy === 'boolean' ? { allowPrivate: policy } : policy;
  return ((hostname: string, options: object, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const kept = addresses.filter((a) => addressAllowed(a.address, allowed));
      if (kept.length === 0) return callback(new AddressRefused(`${hostname} resolves to no address deliveries may go to`) as NodeJS.ErrnoException, '');
      if ((options as { all?: boolean }).all) return callback(null, kept);
      return callback(null, kept[0]!.address, kept[0]!.family);
    });
  }) as LookupFunction;
}
