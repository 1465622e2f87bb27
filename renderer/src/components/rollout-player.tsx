// Play/pause and a step slider for a rollout. Playing advances one step per tick and stops at the
// last step; pressing play at the end starts again from step 1. The slider is a native range
// input, so arrow keys, Home/End and Page keys work and screen readers hear "step k of T".
import { useEffect, useId, useState } from 'react';

export interface RolloutPlayerProps {
  /** 1-based step shown. */
  step: number;
  total: number;
  onStep(step: number): void;
}

const SPEEDS = [
  { ms: 1000, label: 'slow (1 step/s)' },
  { ms: 500, label: 'normal (2 steps/s)' },
  { ms: 200, label: 'fast (5 steps/s)' },
];

export function RolloutPlayer({ step, total, onStep }: RolloutPlayerProps) {
  const [playing, setPlaying] = useState(false);
  const [ms, setMs] = useState(500);
  const id = useId();

  useEffect(() => {
    if (!playing) return;
    if (step >= total) {
      setPlaying(false);
      return;
    }
    // One timeout per shown step (not an interval): a slow redraw delays the next step instead of queueing steps.
    const t = setTimeout(() => onStep(Math.min(total, step + 1)), ms);
    return () => clearTimeout(t);
  }, [playing, step, total, ms, onStep]);

  const toggle = () => {
    if (playing) return setPlaying(false);
    if (step >= total) onStep(1);
    setPlaying(true);
  };

  return (
    <div className="row wrap rollout-player" role="group" aria-label="Rollout player">
      {/* The label says what a press does (no aria-pressed: a toggle's name must not change with its state). */}
      <button onClick={toggle} data-testid="rollout-play" disabled={total < 2}>
        {playing ? 'Pause' : step >= total && total > 1 ? 'Replay' : 'Play'}
      </button>
      <label htmlFor={`${id}-step`}>Rollout step</label>
      <input
        id={`${id}-step`}
        type="range"
        min={1}
        max={total}
        step={1}
        value={step}
        aria-valuetext={`step ${step} of ${total}`}
        onChange={(e) => {
          setPlaying(false);
          onStep(Number(e.target.value));
        }}
        data-testid="rollout-slider"
      />
      <output htmlFor={`${id}-step`} data-testid="rollout-step" aria-live="off">
        t = {step} / {total}
      </output>
      <label htmlFor={`${id}-speed`}>Speed</label>
      <select id={`${id}-speed`} value={ms} onChange={(e) => setMs(Number(e.target.value))}>
        {SPEEDS.map((s) => <option key={s.ms} value={s.ms}>{s.label}</option>)}
      </select>
    </div>
  );
}
