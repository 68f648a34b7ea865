// Who may use the dashboard's local sign-in (a token for any account id, development only): requests addressed to
// this machine. A service listening on loopback is still reachable from a browser's other tabs through DNS rebinding
// (evil.example resolving to 127.0.0.1 sends `Host: evil.example`) and from anything a proxy in front forwards, so
// listening on loopback is not enough: the request itself must name this machine.
//
// Decisions:
// - `Host` must be a loopback name or address (`localhost`, `*.localhost` (RFC 6761), 127.0.0.0/8, `[::1]`) or the
//   host of PUBLIC_URL (the address the operator says callers use, e.g. with DASHBOARD_LOCAL_SIGN_IN=true on a
//   development VM). Any port.
// - `Origin`, when sent (browsers send it on every POST), must be that same host and port over http or https: a page
//   of another site cannot mint a token even where the Host passes. `Origin: null` (sandboxed frames, files) is refused.
import { ApiError } from '../http/api-error.js';

const LOOPBACK = [/^localhost$/, /^[a-z0-9-]+(\.[a-z0-9-]+)*\.localhost$/, /^127(\.\d{1,3}){3}$/, /^\[::1\]$/];

/** The host and port of a `Host` header (or an origin's authority), lower-cased; null when it is not one. */
function authority(value: string): { hostname: string; host: string } | null {
  try {
    const url = new URL(`http://${value}`);
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return null;
    return { hostname: url.hostname.toLowerCase(), host: url.host.toLowerCase() };
  } catch {
    return null;
  }
}

const refuse = (header: 'host' | 'origin', message: string) =>
  new ApiError('invalid_request', `The local sign-in ${message}.`, { errors: [{ path: `/header/${header}`, message }] });

/** Throws 400 unless the request is addressed to this machine (see the decisions above). */
export function assertLocalRequest(headers: { host?: string; origin?: string }, publicUrl: string): void {
  const host = headers.host ? authority(headers.host) : null;
  const publicHost = new URL(publicUrl).hostname.toLowerCase();
  if (!host || !(LOOPBACK.some((re) => re.test(host.hostname)) || host.hostname === publicHost)) {
    throw refuse('host', 'answers only requests addressed to this machine (Host localhost, a loopback address, or the host of PUBLIC_URL)');
  }
  const origin = headers.origin;
  if (origin === undefined) return;
  let sameHost = false;
  try {
    const o = new URL(origin);
    sameHost = (o.protocol === 'http:' || o.protocol === 'https:') && o.host.toLowerCase() === host.host && origin === o.origin;
  } catch {
    sameHost = false;
  }
  if (!sameHost) throw refuse('origin', 'answers only pages of this server (Origin must be the Host the request was sent to)');
}
