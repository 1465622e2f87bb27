// An error's text for the user: an Error's message, else String(e). The renderer's own copy of
// main/util/error-message.ts, since the renderer imports nothing from main/ but main/api.
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
