/** An account's endpoints: enough for every system it feeds, few enough that one event cannot fan out without bound. */
export const MAX_ENDPOINTS = 20;

/**
 * The most deliveries of `job.failed` events (events of jobs that were never charged) an account may have pending.
 * Beyond it such an event is still recorded for each endpoint, as a failed delivery with no attempt (listed, and sent
 * on a redelivery), but nothing is sent by itself: failing jobs cost their account nothing, so without a bound a
 * stream of them fans out to 20 endpoints x 10 attempts each at no cost (5 events' worth to 20 endpoints).
 */
export const MAX_PENDING_UNCHARGED_DELIVERIES = 100;
