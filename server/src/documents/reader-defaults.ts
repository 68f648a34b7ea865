/**
 * The reader's defaults, for 2 cores and a service that stays under 1.5 GB resident: two processes reading (one a
 * core), each limited to 512 MB (a 25-megapixel page through OCR fits; the flate bomb does not), one of them at most
 * per account, and two spares started ahead (about 80 MB each). Worst case: the service (about 250 MB on PostgreSQL)
 * + 2 x 512 MB + 2 x 80 MB. Here, not in reader.ts, so the configuration reads them without loading the reader.
 */
export const READER_DEFAULTS = { processes: 2, memoryMb: 512, perAccount: 1, spares: 2 } as const;
