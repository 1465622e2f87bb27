// One read from the API for a view, made again when its key changes: the answer, why not, and
// whether a read is under way. An answer for an older key is dropped. With `keep`, the previous
// answer stays shown while the next one loads (and, unless `clearOnError`, when it fails).
import { useEffect, useState } from 'react';
import type { WorkbenchApi } from '../../../main/api/contract';
import { errorText } from '../api/error-text';
import { useApp } from '../stores/app-store';

export interface Query<T> {
  value: T | null;
  error: string | null;
  busy: boolean;
}

export function useQuery<T>(key: string | null, read: (api: WorkbenchApi) => Promise<T>, opts: { keep?: boolean; clearOnError?: boolean } = {}): Query<T> {
  const api = useApp((s) => s.api);
  const [state, setState] = useState<Query<T>>({ value: null, error: null, busy: false });
  useEffect(() => {
    if (!api || key === null) return;
    let live = true;
    setState((s) => ({ value: opts.keep ? s.value : null, error: null, busy: true }));
    read(api).then(
      (value) => live && setState({ value, error: null, busy: false }),
      (e) => live && setState((s) => ({ value: opts.keep && !opts.clearOnError ? s.value : null, error: errorText(e), busy: false })),
    );
    return () => {
      live = false;
    };
  }, [api, key]); // key stands for what `read` asks
  return state;
}
