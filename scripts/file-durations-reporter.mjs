// A node:test reporter for scripts/test.mjs: one line per test file, "<milliseconds>\t<path>", from the
// file's own top-level entry (node reports each file as a test named after its path, whose duration
// runs from the file's start to its end, loading and hooks included).
export default async function* fileDurations(source) {
  for await (const event of source) {
    if (event.type !== 'test:complete' || event.data.nesting !== 0) continue;
    const { name, file, details } = event.data;
    if (file && name === file) yield `${Math.round(details.duration_ms)}\t${file}\n`;
  }
}
