// Browser mode's in-app file browser (Electron uses native dialogs through files.pickOpen).
// It lists folders the host allows and hands back opaque file references, never paths.
import { useState } from 'react';
import type { FileEntry } from '../../../main/api/contract';
import { listFiles, useFileListing } from '../queries/files';
import { errorText } from '../api/error-text';

export interface FileBrowserProps {
  title: string;
  /** Pick a folder (true) or a file (false). */
  directory: boolean;
  onPick(entry: { ref: string; name: string }): void;
  onCancel(): void;
}

export function FileBrowser({ title, directory, onPick, onCancel }: FileBrowserProps) {
  const [root, setRoot] = useState<'home' | 'workspace'>('workspace');
  const [rel, setRel] = useState('');
  const { value: listing, error: listError } = useFileListing(root, rel);
  const [pickError, setPickError] = useState<string | null>(null);
  const error = pickError ?? listError;

  const open = (e: FileEntry) => {
    if (e.kind === 'dir') setRel(listing && listing.rel ? `${listing.rel}/${e.name}` : e.name);
    else if (!directory && e.ref) onPick({ ref: e.ref, name: e.name });
  };

  return (
    <div className="dialog" role="dialog" aria-modal="true" aria-label={title}>
      <h2>{title}</h2>
      <div className="row">
        <label>
          Root{' '}
          <select value={root} onChange={(e) => { setRoot(e.target.value as 'home' | 'workspace'); setRel(''); }}>
            <option value="workspace">Workspace</option>
            <option value="home">Home</option>
          </select>
        </label>
        <span className="path" data-testid="browser-path">/{listing?.rel ?? ''}</span>
        {listing?.parent !== null && listing?.parent !== undefined && (
          <button onClick={() => setRel(listing.parent ?? '')}>Up</button>
        )}
      </div>
      {error && <p className="error-message">{error}</p>}
      <ul className="file-list">
        {listing?.entries.map((e) => (
          <li key={e.name}>
            <button className="link" onClick={() => open(e)} disabled={e.kind === 'file' && directory}>
              {e.kind === 'dir' ? '📁 ' : '📄 '}
              {e.name}
            </button>
            {e.kind === 'file' && <span className="muted"> {(e.size / 1024).toFixed(1)} KiB</span>}
          </li>
        ))}
      </ul>
      <div className="row">
        {directory && listing && (
          <button
            onClick={() => {
              // The listed folder itself: the host issued refs only for its entries, so ask the parent listing.
              const name = listing.rel.split('/').pop() ?? '';
              if (listing.parent === null) return;
              listFiles(root, listing.parent).then((p) => {
                const entry = p.entries.find((x) => x.name === name);
                if (entry?.ref) onPick({ ref: entry.ref, name });
              }, (e: unknown) => setPickError(errorText(e)));
            }}
            disabled={!listing || listing.parent === null}
          >
            Choose this folder
          </button>
        )}
        <button onClick={onCancel}>Cancel</button>
      </div>
    </div>
  );
}
