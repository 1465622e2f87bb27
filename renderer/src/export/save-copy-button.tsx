// Electron only: after an export lands in the workspace's exports/, offer to copy it elsewhere
// through the native save dialog (exports.saveAs). Browser mode downloads instead, so it renders nothing there.
import { useState } from 'react';
import { useApp } from '../stores/app-store';
import { saveExportAs } from '../queries/exports';
import { errorText } from '../api/error-text';

export function SaveCopyButton({ name }: { name: string }) {
  const native = useApp((s) => !!s.host?.nativeDialogs);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  if (!native) return null;
  const run = async () => {
    setNote(null);
    try {
      const r = await saveExportAs(name);
      if (r) setNote({ ok: true, text: `Copied to ${r.path}` });
    } catch (e) {
      setNote({ ok: false, text: `Could not save a copy: ${errorText(e)}` });
    }
  };
  return (
    <>
      <button className="link" onClick={() => void run()} aria-label={`Save a copy of ${name}`}>Save a copy…</button>
      {note && <span role="status" className={note.ok ? 'muted' : 'error-message'}>{note.text}</span>}
    </>
  );
}
