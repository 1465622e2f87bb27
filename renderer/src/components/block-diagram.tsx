// The light-evolution block as the paper's Fig. 1 draws it, following the model code
// (main/model/lino/block.ts): x -> LayerNorm -> enabled branches (reflection, refraction,
// scattering) -> gate alpha softmax mixture -> OutProj, residual -> LayerNorm -> FFN, residual.
// Disabled branches stay visible, dashed and marked "off", so the toggles' effect is plain.
import { useId } from 'react';
import type { ComponentName } from '../logic/model-draft';

export interface BlockDiagramProps {
  components: Record<ComponentName, boolean>;
  scattering: 'efficient' | 'full';
  depth: number;
  width: number;
}

const BRANCHES: { key: ComponentName; title: string; sub: (s: 'efficient' | 'full') => string; y: number }[] = [
  { key: 'reflection', title: 'Reflection R(h)', sub: () => 'Householder mirror', y: 30 },
  { key: 'refraction', title: 'Refraction T(h)', sub: () => 'η = 1 + ρ tanh γ', y: 100 },
  { key: 'scattering', title: 'Scattering S(h)', sub: (s) => (s === 'full' ? 'full: pairwise softmax, O(N²)' : 'efficient: linear kernel + conv'), y: 170 },
];

function Box({ x, y, w, h, title, sub, off, testId }: { x: number; y: number; w: number; h: number; title: string; sub?: string; off?: boolean; testId?: string }) {
  return (
    <g className={off ? 'box off' : 'box'} data-testid={testId} data-state={off === undefined ? undefined : off ? 'off' : 'on'}>
      <rect x={x} y={y} width={w} height={h} rx={6} />
      <text x={x + w / 2} y={y + (sub ? h / 2 - 4 : h / 2 + 4)} textAnchor="middle" className="title">{title}</text>
      {sub && <text x={x + w / 2} y={y + h / 2 + 12} textAnchor="middle" className="sub">{off ? 'off' : sub}</text>}
    </g>
  );
}

export function BlockDiagram({ components, scattering, depth, width }: BlockDiagramProps) {
  const id = useId().replace(/[^A-Za-z0-9_-]/g, '');
  const arrow = `url(#${id}-arrow)`;
  const on = BRANCHES.filter((b) => components[b.key]);
  const described = `Light-evolution block, repeated ${depth} times at width ${width}: LayerNorm, then ${on.map((b) => b.key).join(', ')}${
    components.scattering ? ` (${scattering} scattering)` : ''
  }, mixed by gate weights alpha (softmax over ${on.length}), OutProj with a residual connection, LayerNorm, FFN with a residual connection.${
    BRANCHES.filter((b) => !components[b.key]).map((b) => ` ${b.key} is off.`).join('')
  }`;
  const bx = 200;
  const bw = 200;
  return (
    <svg className="block-diagram" viewBox="0 0 1000 330" role="img" aria-labelledby={`${id}-t ${id}-d`} data-testid="block-diagram">
      <title id={`${id}-t`}>Light-evolution block</title>
      <desc id={`${id}-d`}>{described}</desc>
      <defs>
        <marker id={`${id}-arrow`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" className="arrowhead" />
        </marker>
      </defs>
      <rect x={48} y={8} width={905} height={300} rx={10} className="frame" />
      <text x={60} y={324} className="sub">{`× L = ${depth} blocks, width M = ${width}`}</text>

      <text x={14} y={144} className="title">x</text>
      <line x1={28} y1={140} x2={68} y2={140} markerEnd={arrow} className="wire" />
      <Box x={70} y={120} w={90} h={40} title="LayerNorm" />
      {/* fan out from the normalised h to every branch and the gate */}
      {BRANCHES.map((b) => (
        <path key={b.key} d={`M 160 140 C 180 140, 180 ${b.y + 25}, ${bx - 2} ${b.y + 25}`} markerEnd={arrow} className={components[b.key] ? 'wire' : 'wire off'} />
      ))}
      <path d={`M 160 140 C 180 140, 180 265, ${bx - 2} 265`} markerEnd={arrow} className="wire" />
      {BRANCHES.map((b) => (
        <Box key={b.key} x={bx} y={b.y} w={bw} h={50} title={b.title} sub={b.sub(scattering)} off={!components[b.key]} testId={`branch-${b.key}`} />
      ))}
      <Box x={bx} y={240} w={bw} h={50} title="Gate α" sub="softmax(MLP(mean h))" testId="gate" />
      <text x={bx + bw / 2} y={303} textAnchor="middle" className="sub" data-testid="gate-k">{`K = ${on.length}: ${on.map((b) => b.key).join(', ')}`}</text>

      {BRANCHES.map((b) => (
        <path key={b.key} d={`M ${bx + bw} ${b.y + 25} C 420 ${b.y + 25}, 420 140, 438 140`} markerEnd={arrow} className={components[b.key] ? 'wire' : 'wire off'} />
      ))}
      <path d={`M ${bx + bw} 265 C 420 265, 470 220, 470 172`} markerEnd={arrow} className="wire" />
      <Box x={440} y={110} w={80} h={60} title="Σ αₖ bₖ" sub="mixture" />
      <line x1={520} y1={140} x2={548} y2={140} markerEnd={arrow} className="wire" />
      <Box x={550} y={120} w={80} h={40} title="OutProj" />
      <line x1={630} y1={140} x2={651} y2={140} markerEnd={arrow} className="wire" />
      <circle cx={662} cy={140} r={10} className="sum" />
      <text x={662} y={145} textAnchor="middle" className="title">+</text>
      {/* residual around the light mixture */}
      <path d="M 40 140 L 40 20 L 662 20 L 662 128" markerEnd={arrow} className="wire residual" />
      <line x1={672} y1={140} x2={696} y2={140} markerEnd={arrow} className="wire" />
      <Box x={698} y={120} w={80} h={40} title="LayerNorm" />
      <line x1={778} y1={140} x2={790} y2={140} markerEnd={arrow} className="wire" />
      <Box x={792} y={115} w={96} h={50} title="FFN" sub="2M, GELU" />
      <line x1={888} y1={140} x2={898} y2={140} markerEnd={arrow} className="wire" />
      <circle cx={910} cy={140} r={10} className="sum" />
      <text x={910} y={145} textAnchor="middle" className="title">+</text>
      {/* residual around the FFN */}
      <path d="M 684 140 L 684 210 L 910 210 L 910 152" markerEnd={arrow} className="wire residual" />
      <line x1={920} y1={140} x2={975} y2={140} markerEnd={arrow} className="wire" />
      <text x={978} y={144} className="title">x′</text>
    </svg>
  );
}
