// Open a data file (FNO .mat, .npy/.npz, PDEBench .h5, ...): list its variables before loading,
// map them to input and target, and import it into the workspace's dataset store as a job.
import { useId, useState } from 'react';
import type { Result } from '../../../main/api/contract';
import { useApp } from '../stores/app-store';
import { importFile, inspectFile } from '../queries/datasets';
import { pickOpen } from '../queries/files';
import { errorText } from '../api/error-text';
import { FileBrowser } from './file-browser';
import { ImportLayout, type Layout } from './import-layout';
import { FileVariables, ImportTarget, type Bench, type Variable } from './import-variables';
import { BLANK_SPLIT, SplitFields, checkSplit, type SplitTyped } from './split-fields';

// The published files' names (main/data/pipeline.ts DEFAULT_VARIABLES), offered as defaults.
const DEFAULTS: Record<Bench, { input: string[]; target: string } | null> = {
  burgers: { input: ['a'], target: 'u' },
  darcy: { input: ['coeff'], target: 'sol' },
  'navier-stokes': { input: [], target: 'u' },
  airfoil: { input: ['X', 'Y'], target: 'mach' },
  custom: null,
};

export function OpenFileCard() {
  const connected = useApp((s) => !!s.api);
  const host = useApp((s) => s.host);
  const jobs = useApp((s) => s.jobs);
  const reportError = useApp((s) => s.reportError);
  const [browsing, setBrowsing] = useState(false);
  const [file, setFile] = useState<{ ref: string; name: string } | null>(null);
  const [listing, setListing] = useState<Result<'datasets.inspect'> | null>(null);
  const [benchmark, setBenchmark] = useState<Bench>('darcy');
  const [input, setInput] = useState<string[]>([]);
  const [target, setTarget] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const [layout, setLayout] = useState<Layout>({});
  const [allTargets, setAllTargets] = useState(false);
  const [split, setSplit] = useState<SplitTyped>(BLANK_SPLIT);
  const id = useId();

  const applyDefaults = (b: Bench, l: Result<'datasets.inspect'> | null) => {
    const names = new Set(l?.variables.map((v) => v.name) ?? []);
    setLayout({});
    const d = DEFAULTS[b];
    setInput(d ? d.input.filter((n) => names.has(n)) : []);
    setTarget(d && names.has(d.target) ? d.target : (l?.variables[0]?.name ?? ''));
  };

  const inspect = async (picked: { ref: string; name: string }) => {
    setFile(picked);
    setListing(null);
    setError(null);
    try {
      const l = await inspectFile(picked.ref);
      setListing(l);
      applyDefaults(benchmark, l);
    } catch (e) {
      setError(errorText(e));
    }
  };

  const choose = async () => {
    if (!connected) return;
    if (!host?.nativeDialogs) return setBrowsing(true);
    try {
      const picked = await pickOpen(false, 'Open a data file');
      if (picked) await inspect(picked);
    } catch (e) {
      reportError('opening a data file', e);
    }
  };

  const startImport = async () => {
    if (!file) return;
    setError(null);
    try {
      const chosen = layout.groups || layout.time || layout.axisOrder === 'reversed';
      // CFD: all variables at t0 -> all at t1, the target first among the output channels
      const targets = allTargets && layout.time?.mode === 'operator' ? { targets: [target, ...input.filter((n) => n !== target)] } : {};
      const check = checkSplit(split, samples);
      if (Object.keys(check.problems).length > 0) return setError(`Could not import: ${Object.values(check.problems).join('; ')}`);
      const { train, val, test, splitSeed } = check.values;
      const counts = { ...(train !== undefined ? { train } : {}), ...(val !== undefined ? { val } : {}), ...(test !== undefined ? { test } : {}), ...(splitSeed !== undefined ? { splitSeed } : {}) };
      const job = await importFile({ file: file.ref, benchmark, input, target, ...counts, ...(chosen ? { layout: { ...layout, ...targets } } : {}) });
      setJobId(job.id);
    } catch (e) {
      setError(`Could not import: ${errorText(e)}`);
    }
  };

  const job = jobId ? jobs[jobId] : undefined;
  // with per-sample groups read as samples, the variables are the groups' members, stacked
  const shown: Variable[] =
    layout.groups && listing?.groups ? listing.groups : (listing?.variables ?? []);
  // the sample count the split is checked against: the target's first axis (unknown for reversed axes)
  const samples = layout.axisOrder === 'reversed' ? undefined : shown.find((v) => v.name === target)?.shape[0];
  const changeLayout = (l: Layout) => {
    if (!!l.groups !== !!layout.groups) {
      const vars = l.groups && listing?.groups ? listing.groups : (listing?.variables ?? []);
      setInput([]);
      setTarget(vars[0]?.name ?? '');
    }
    setLayout(l);
  };
  return (
    <div className="card" role="region" aria-labelledby={`${id}-t`} data-testid="open-file">
      <h2 id={`${id}-t`}>Open a data file</h2>
      <p className="muted">FNO .mat (v5 or v7.3), .npy / .npz, HDF5 (PDEBench), Geo-FNO airfoil folder.</p>
      <button onClick={choose}>Choose a file…</button>
      {browsing && (
        <FileBrowser
          title="Open a data file"
          directory={false}
          onCancel={() => setBrowsing(false)}
          onPick={(e) => {
            setBrowsing(false);
            void inspect(e);
          }}
        />
      )}
      {error && <p className="error-message" role="alert">{error}</p>}
      {file && listing && (
        <>
          <p>
            <strong>{listing.name}</strong> — {listing.format}
          </p>
          <FileVariables variables={shown} input={input} onInput={setInput} />
          <ImportLayout format={listing.format} groupCount={listing.groups?.[0]?.shape[0] ?? 0} hints={listing.hints ?? []} layout={layout} onChange={changeLayout} allTargets={allTargets} onAllTargets={setAllTargets} />
          <SplitFields value={split} onChange={setSplit} samples={samples} />
          <ImportTarget benchmark={benchmark} onBenchmark={(b) => { setBenchmark(b); applyDefaults(b, listing); }} target={target} onTarget={setTarget} variables={shown} onImport={() => void startImport()} />
        </>
      )}
      {job && (
        <p data-testid={`import-${job.state}`}>
          {job.label}: {job.state}
          {job.state === 'running' && ` ${Math.round(job.progress * 100)}%`}
          {job.error && <span className="error-message"> {job.error}</span>}
        </p>
      )}
    </div>
  );
}
