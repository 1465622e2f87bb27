// The open-file card's choices once a file is listed: which variables are inputs, which benchmark
// the file is and which variable is the target.
import type { Benchmark } from '../../../main/api/contract';

export type Bench = Benchmark | 'custom';

export type Variable = { name: string; shape: number[]; dtype: string; bytes: number; unsupported?: string };

/** The file's variables (or a group's members), each with a checkbox to use it as an input. */
export function FileVariables({ variables, input, onInput }: { variables: Variable[]; input: string[]; onInput(v: string[]): void }) {
  return (
    <table className="stats-table" data-testid="file-variables">
      <thead>
        <tr><th scope="col">Variable</th><th scope="col">Shape</th><th scope="col">dtype</th><th scope="col">Size</th><th scope="col">Input</th></tr>
      </thead>
      <tbody>
        {variables.map((v) => (
          <tr key={v.name}>
            <td>{v.name}</td>
            <td>[{v.shape.join(', ')}]</td>
            <td>{v.dtype}</td>
            <td>{(v.bytes / 1024 / 1024).toFixed(2)} MiB</td>
            <td>
              {v.unsupported ? (
                <span className="muted">{v.unsupported}</span>
              ) : (
                <input
                  type="checkbox"
                  aria-label={`use ${v.name} as an input`}
                  checked={input.includes(v.name)}
                  onChange={(e) => onInput(e.target.checked ? [...input, v.name] : input.filter((n) => n !== v.name))}
                />
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Which benchmark the file is (its default variable names) and which variable is the target; Import. */
export function ImportTarget(p: { benchmark: Bench; onBenchmark(b: Bench): void; target: string; onTarget(t: string): void; variables: Variable[]; onImport(): void }) {
  return (
    <div className="row">
      <label>
        Benchmark{' '}
        <select value={p.benchmark} onChange={(e) => p.onBenchmark(e.target.value as Bench)}>
          <option value="darcy">Darcy</option>
          <option value="burgers">Burgers</option>
          <option value="navier-stokes">Navier–Stokes</option>
          <option value="airfoil">Airfoil</option>
          <option value="custom">Other</option>
        </select>
      </label>
      <label>
        Target{' '}
        <select value={p.target} onChange={(e) => p.onTarget(e.target.value)}>
          {p.variables.filter((v) => !v.unsupported).map((v) => <option key={v.name} value={v.name}>{v.name}</option>)}
        </select>
      </label>
      <button onClick={p.onImport} disabled={!p.target} data-testid="import-file">Import</button>
    </div>
  );
}
