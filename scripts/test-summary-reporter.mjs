// A node:test reporter for scripts/test.mjs: the run's closing counts as TAP writes them ("# pass 12",
// "# fail 0", ...) and one line per test file, "<milliseconds>\t<path>", from the file's own top-level
// entry (node reports each file as a test named after its path, whose duration runs from the file's
// start to its end, loading and hooks included). One reporter for both: node warns of a listener leak
// with a third reporter on a run of many files.
export default async function* testSummary(source) {
  for await (const event of source) {
    if (event.type === 'test:diagnostic' && event.data.nesting === 0) yield `# ${event.data.message}\n`;
    if (event.type !== 'test:complete' || event.data.nesting !== 0) continue;
    const { name, file, details } = event.data;
    if (file && name === file) yield `${Math.round(details.duration_ms)}\t${file}\n`;
  }
}
