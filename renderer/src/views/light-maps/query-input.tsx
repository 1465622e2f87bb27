// The query point typed in ("i" or "i, j"), for the keyboard: the same as a click on a map.
import { useEffect, useId, useState } from 'react';

export function QueryInput({ query, onPick }: { query: number[] | null; onPick: (q: number[]) => void }) {
  const id = useId();
  const [text, setText] = useState('');
  useEffect(() => setText(query ? query.join(', ') : ''), [query]);
  const parsed = text.split(',').map((s) => s.trim()).filter((s) => s !== '').map(Number);
  const ok = parsed.length >= 1 && parsed.length <= 2 && parsed.every((v) => Number.isInteger(v) && v >= 0);
  return (
    <form className="row" onSubmit={(e) => { e.preventDefault(); if (ok) onPick(parsed); }}>
      <label htmlFor={id}>Query point (i or i, j)</label>
      <input id={id} data-testid="lightmaps-query-input" value={text} onChange={(e) => setText(e.target.value)} size={8} />
      <button type="submit" disabled={!ok}>Show kernel</button>
    </form>
  );
}
