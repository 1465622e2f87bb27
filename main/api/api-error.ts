// An error as it crosses a process or network boundary (IPC, WebSocket, host <-> engine).
import { errorMessage } from '../util/error-message';

/** An error as it crosses a process or network boundary. */
export interface ApiErrorShape {
  message: string;
  code: 'invalid_params' | 'unknown_method' | 'engine_crashed' | 'not_found' | 'forbidden' | 'failed' | 'cancelled';
  /** What caused it, for showing the message next to it (a file, a field). */
  field?: string;
  file?: string;
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: ApiErrorShape['code'] = 'failed',
    readonly details: { field?: string; file?: string } = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
  toJSON(): ApiErrorShape {
    return { message: this.message, code: this.code, ...this.details };
  }
  static from(e: unknown): ApiError {
    if (e instanceof ApiError) return e;
    if (e && typeof e === 'object' && 'message' in e && 'code' in e) {
      const s = e as ApiErrorShape;
      return new ApiError(s.message, s.code, { field: s.field, file: s.file });
    }
    return new ApiError(errorMessage(e));
  }
}
