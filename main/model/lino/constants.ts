// Per-model cache of grid constants (coordinates, pairwise distances). Kept outside any tidy
// scope and released by the model's dispose().
import * as tf from '../../ops/tf';

export class GridConstants {
  private readonly cache = new Map<string, tf.Tensor>();

  get(kind: string, grid: readonly number[], make: () => tf.Tensor): tf.Tensor {
    const key = `${kind}:${grid.join('x')}`;
    let t = this.cache.get(key);
    if (!t || t.isDisposed) {
      t = tf.keep(make());
      this.cache.set(key, t);
    }
    return t;
  }

  dispose(): void {
    for (const t of this.cache.values()) t.dispose();
    this.cache.clear();
  }
}
