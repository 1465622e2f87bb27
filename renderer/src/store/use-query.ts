// One read from the API for a view, made again when its key changes: the answer or why not.
// An answer for an older key is dropped. With `keep`, the previous answer stays shown while the
// next one loads (a sample preview stepping through samples); without, it is cleared.
import { useEffect, useState } from 'react';
import type { WorkbenchApi } from '../../../main/api/contract';
import { errorText } from '../api/error-text';
import { useApp } from './app-store';

export interface Query<T> {
  value: T | null;
  error: string | null;
}

export function useQuery<T>(key: string | null, read: (api: WorkbenchApi) => Promise<T>, opts: { keep?: boolean } = {}): Query<T> {
  const api = useApp((s) => s.api);
  const [state, setState] = useState<Query<T>>({ value: null, error: null });
  useEffect(() => {
    if (!api || key === null) return;
    let live = true;
    if (!opts.keep) setState({ value: null, error: null });
    read(api).then(
      (value) => live && setState({ value, error: null }),
      (e) => live && setState((s) => ({ value: opts.keep ? s.value : null, error: errorText(e) })),
    );
    return () => {
      live = false;
    };
  }, [api, key]); // key stands for what `read` asks
  return state;
}
