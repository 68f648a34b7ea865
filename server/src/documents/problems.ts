/**
 * Why a file cannot be read: plain data, so it can cross back from a worker thread; `document-errors.ts` turns it
 * into the error answer.
 */
export type DocumentProblem =
  | { code: 'document_type_mismatch'; message: string }
  | { code: 'document_encrypted'; message: string }
  | { code: 'document_unreadable'; message: string }
  | { code: 'payload_too_large'; message: string; limit: number };

/** A problem raised while reading (inside the worker), carried back as a value. */
export class DocumentProblemError extends Error {
  constructor(readonly problem: DocumentProblem) {
    super(problem.message);
  }
}

export const problem = (p: DocumentProblem): never => {
  throw new DocumentProblemError(p);
};
