import { errorMessage } from '../../util/error-message';
// One error type for every problem with data files or dataset preparation, carrying the file and
// the field (variable, header entry, option) so the UI can show where the problem is.
export class DataError extends Error {
  readonly file: string;
  readonly field: string;
  readonly expected: string;
  constructor(file: string, field: string, problem: string, expected?: string) {
    super(`${file || '(dataset)'}${field ? ` [${field}]` : ''}: ${problem}${expected ? ` (expected ${expected})` : ''}`);
    this.name = 'DataError';
    this.file = file;
    this.field = field;
    this.expected = expected ?? '';
  }
  /** What crosses the engine/UI boundary (Error's own fields do not serialise). */
  toJSON(): { name: string; message: string; file: string; field: string; expected: string } {
    return { name: this.name, message: this.message, file: this.file, field: this.field, expected: this.expected };
  }
}

/** Wraps anything a library threw into a DataError naming the file and field. */
export function asDataError(err: unknown, file: string, field: string, what: string): DataError {
  if (err instanceof DataError) return err;
  const msg = errorMessage(err);
  return new DataError(file, field, `${what}: ${msg.split('\n')[0]}`);
}
