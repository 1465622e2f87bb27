// Text from a file (tensor names, metadata, notes) printed to a terminal: control characters would
// act on it (ESC ] 0; sets the window title, ESC [2J clears the screen), so they are shown escaped.

/** C0 and C1 controls, DEL, and the bidirectional overrides that reorder what the eye reads. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const hex = (c: string) => {
  const n = c.codePointAt(0)!;
  return n <= 0xff ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
};

/** `s` with every control character written as \xHH / \uHHHH. */
export function printable(s: string): string {
  return s.replace(CONTROL, hex);
}

/** What JSON.stringify leaves raw inside strings (it escapes C0 itself; its own newlines are layout). */
const RAW_IN_JSON = /[\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** JSON.stringify, with the controls JSON leaves raw (DEL, C1, bidi) escaped too: still valid JSON. */
export function printableJson(v: unknown, space?: number): string {
  return JSON.stringify(v, null, space).replace(RAW_IN_JSON, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}
