// StepLR as torch.optim.lr_scheduler.StepLR, stepped once per epoch: every `stepSize` epochs
// the rate is multiplied by gamma. Computed by repeated multiplication in double precision,
// as PyTorch's recursive form does, so the rates match its get_last_lr() bit for bit.

export interface StepLROptions {
  stepSize: number;
  gamma: number;
}

export class StepLR {
  /** Epochs stepped so far (PyTorch's last_epoch). */
  lastEpoch = 0;
  lr: number;

  constructor(readonly baseLr: number, readonly opts: StepLROptions) {
    if (!(opts.stepSize >= 1)) throw new Error(`schedule: field 'stepSize' is ${opts.stepSize}, expected an integer >= 1`);
    this.lr = baseLr;
  }

  step(): number {
    this.lastEpoch += 1;
    if (this.lastEpoch % this.opts.stepSize === 0) this.lr = this.lr * this.opts.gamma;
    return this.lr;
  }

  getState(): { lastEpoch: number; lr: number } {
    return { lastEpoch: this.lastEpoch, lr: this.lr };
  }

  setState(s: { lastEpoch: number; lr: number }): void {
    this.lastEpoch = s.lastEpoch;
    this.lr = s.lr;
  }
}
