// Light-evolution block (pre-norm residual):
//   h = LN1(x); alpha = softmax(Gate(mean h)); x += OutProj(sum_k alpha_k branch_k(h)); x += FFN(LN2(x)).
import * as tf from '../../ops/tf';
import type { BlockDiagnostics } from '../types';
import { geluLinear, linear } from '../../ops/linear';
import { layerNorm } from '../../ops/layer-norm';
import type { Component, LinoConfig } from './config';
import type { GridConstants } from './constants';
import type { ParamStore } from './params';
import { Reflection } from './reflection';
import { Refraction } from './refraction';
import { ScatteringFull } from './scattering-full';
import { ScatteringEfficient } from './scattering-efficient';
import { Gate, mixBranches } from './gate';

type Affine = { weight: tf.Variable; bias?: tf.Variable };

/**
 * What one block computed in a forward pass, handed to an optional capture callback (light maps):
 * x the residual stream entering the block [B*N, M], h = LN1(x), each enabled branch's output
 * [B*N, M] and the gate alpha [B, K]. Tensors live in the caller's tidy scope: keep what you need.
 */
export interface BlockCapture {
  x: tf.Tensor2D;
  h: tf.Tensor2D;
  branches: Partial<Record<Component, tf.Tensor2D>>;
  alpha: tf.Tensor2D;
}

export class LightBlock {
  readonly norm1: { weight: tf.Variable; bias: tf.Variable };
  readonly norm2: { weight: tf.Variable; bias: tf.Variable };
  readonly reflection?: Reflection;
  readonly refraction?: Refraction;
  readonly scattering?: ScatteringFull | ScatteringEfficient;
  readonly gate: Gate;
  readonly outProj: Affine;
  readonly ffn0: Affine;
  readonly ffn2: Affine;
  readonly components: Component[];

  constructor(store: ParamStore, prefix: string, cfg: LinoConfig) {
    const M = cfg.width;
    this.components = [...cfg.components];
    this.norm1 = { weight: store.constant(`${prefix}.norm1.weight`, [M], 1), bias: store.constant(`${prefix}.norm1.bias`, [M], 0) };
    if (this.components.includes('reflection')) this.reflection = new Reflection(store, `${prefix}.reflection`, M);
    if (this.components.includes('refraction')) this.refraction = new Refraction(store, `${prefix}.refraction`, M);
    if (this.components.includes('scattering')) {
      this.scattering = cfg.scattering === 'full'
        ? new ScatteringFull(store, `${prefix}.scattering`, M)
        : new ScatteringEfficient(store, `${prefix}.scattering`, M, cfg.dims);
    }
    this.gate = new Gate(store, `${prefix}.gate`, M, this.components.length);
    this.outProj = store.affine(`${prefix}.out_proj`, M, M);
    this.norm2 = { weight: store.constant(`${prefix}.norm2.weight`, [M], 1), bias: store.constant(`${prefix}.norm2.bias`, [M], 0) };
    this.ffn0 = store.affine(`${prefix}.ffn.net.0`, M, 2 * M);
    this.ffn2 = store.affine(`${prefix}.ffn.net.2`, 2 * M, M);
  }

  /**
   * x: [B*N, M], B samples of a flattened grid (activations stay 2-D through the block: no
   * reshape churn around the 2-D matMuls); grid: spatial shape with product N.
   */
  applyRows(x: tf.Tensor2D, batch: number, grid: readonly number[], consts: GridConstants, capture?: (c: BlockCapture) => void): { y: tf.Tensor2D; alpha: tf.Tensor2D } {
    const h = layerNorm(x, this.norm1.weight, this.norm1.bias) as tf.Tensor2D;
    const branches: tf.Tensor2D[] = [];
    if (this.reflection) branches.push(this.reflection.apply(h) as tf.Tensor2D);
    if (this.refraction) branches.push(this.refraction.apply(h) as tf.Tensor2D);
    if (this.scattering) branches.push(this.scattering.apply(h, batch, grid, consts));
    const alpha = this.gate.weights(h, batch);
    if (capture) {
      const named: Partial<Record<Component, tf.Tensor2D>> = {};
      this.components.forEach((c, k) => { named[c] = branches[k]; });
      capture({ x, h, branches: named, alpha });
    }
    const mix = mixBranches(alpha, branches);
    const x1 = tf.add(x, linear(mix, this.outProj.weight, this.outProj.bias));
    const f = geluLinear(linear(layerNorm(x1, this.norm2.weight, this.norm2.bias), this.ffn0.weight, this.ffn0.bias), this.ffn2.weight, this.ffn2.bias);
    return { y: tf.add(x1, f) as tf.Tensor2D, alpha };
  }

  /** x: [B, N, M] (the 3-D form, e.g. for per-block gradient checkpointing): applyRows with a reshape at each edge. */
  apply(x: tf.Tensor3D, grid: readonly number[], consts: GridConstants): { y: tf.Tensor3D; alpha: tf.Tensor2D } {
    const [B, N, M] = x.shape;
    const r = this.applyRows(tf.reshape(x, [B * N, M]) as tf.Tensor2D, B, grid, consts);
    return { y: tf.reshape(r.y, [B, N, M]) as tf.Tensor3D, alpha: r.alpha };
  }

  /** beta (efficient scattering), eta (refraction), sigma (scattering), tau (full scattering). */
  scalars(): Record<string, number> {
    const out: Record<string, number> = {};
    if (this.refraction) out.eta = this.refraction.etaValue();
    if (this.scattering instanceof ScatteringEfficient) {
      out.beta = this.scattering.betaValue();
      out.sigma = this.scattering.sigmaValue();
    } else if (this.scattering instanceof ScatteringFull) {
      out.sigma = this.scattering.sigmaValue();
      out.tau = this.scattering.tauValue();
    }
    return out;
  }

  diagnostics(alpha: tf.Tensor2D): BlockDiagnostics {
    return { alpha, components: [...this.components], scalars: this.scalars() };
  }
}
