// The readable text of anything thrown: an Error's message (not its stack), otherwise String(e).
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
