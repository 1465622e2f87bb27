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
              <EntryIcon kind={e.kind} />
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

/**
 * A folder or file icon drawn inline: the emoji the list used (U+1F4C1, U+1F4C4) need a colour
 * emoji font that Debian's Chromium lacks, so they rendered as empty boxes.
 */
function EntryIcon({ kind }: { kind: 'dir' | 'file' }) {
  return (
    <svg className="entry-icon" data-testid={`entry-icon-${kind}`} aria-hidden="true" focusable="false" width="14" height="14" viewBox="0 0 16 16" style={{ verticalAlign: '-2px', marginRight: '0.35em' }}>
      {kind === 'dir'
        ? <path d="M1.5 3.5h4.3l1.4 1.6h7.3v7.4a1 1 0 0 1-1 1h-11a1 1 0 0 1-1-1z" fill="#e8b84a" stroke="#a07a1f" strokeWidth="1" strokeLinejoin="round" />
        : <path d="M3.5 1.5h6l3 3v10h-9z M9.5 1.5v3h3" fill="#f4f4f4" stroke="#777" strokeWidth="1" strokeLinejoin="round" />}
    </svg>
  );
}
