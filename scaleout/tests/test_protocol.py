"""Protocol pieces of scaleout on their own: python3 -m unittest scaleout.tests.test_protocol (from the repo root)."""
import json
import os
import tempfile
import unittest

import numpy as np
import torch

from scaleout.model import LiNO
from scaleout.protocol import share_objective, predict, rel_l2
from scaleout.runfmt import RunFolder


class Protocol(unittest.TestCase):
    def test_shares_add_up_to_the_batch_objective(self):
        """Any split of a batch (ranks, micro-batches): the shares' losses and gradients sum to the whole batch's."""
        torch.manual_seed(0)
        for ar in (None, {"tIn": 2, "tOut": 3}):
            model = LiNO(2, 4 if ar else 3, 1 if ar else 2, 6, 1).double()
            x = torch.randn(5, 4, 4, 4 if ar else 3, dtype=torch.float64)
            y = torch.randn(5, 4, 4, 3 if ar else 2, dtype=torch.float64)
            pred = predict(model, x, ar)
            whole = torch.nn.functional.mse_loss(pred, y) + (sum(rel_l2(pred[..., k], y[..., k]).mean() for k in range(3)) if ar else rel_l2(pred, y).mean())
            g_whole = torch.autograd.grad(whole, list(model.parameters()))
            parts = [share_objective(predict(model, x[a:b], ar), y[a:b], 5, ar)[0] for a, b in ((0, 2), (2, 3), (3, 5))]
            self.assertAlmostEqual(float(sum(parts)), float(whole), places=12)
            g_parts = torch.autograd.grad(sum(parts), list(model.parameters()))
            for a, b in zip(g_whole, g_parts):
                self.assertTrue(torch.allclose(a, b, atol=1e-12))

    def test_checkpoint_round_trip_and_checksum(self):
        with tempfile.TemporaryDirectory() as d:
            run = RunFolder(d)
            w = {"a.weight": np.arange(6, dtype=np.float32).reshape(2, 3)}
            m = {"a.weight": np.ones((2, 3), np.float32)}
            state = {"format": "lino-checkpoint", "version": 1, "epoch": 1, "globalStep": 3, "metricsRecords": 4}
            run.save_checkpoint("last", w, m, m, state)
            st, w2, m2, v2 = run.load_checkpoint("last")
            self.assertEqual(st["epoch"], 1)
            self.assertEqual(len(st["files"]["weights.safetensors"]), 64)
            np.testing.assert_array_equal(w2["a.weight"], w["a.weight"])
            with open(os.path.join(d, "checkpoints", "last", "weights.safetensors"), "r+b") as f:
                f.seek(-1, 2)
                f.write(b"\x01")
            with self.assertRaises(SystemExit) as e:
                run.load_checkpoint("last")
            self.assertIn("does not match", str(e.exception))

    def test_torn_metrics_line_is_skipped(self):
        with tempfile.TemporaryDirectory() as d:
            run = RunFolder(d)
            run.append_metrics([{"type": "step", "step": 1}, {"type": "step", "step": 2}])
            with open(run.metrics_path, "a") as f:
                f.write('{"type": "st')
            self.assertEqual([r["step"] for r in run.read_metrics()], [1, 2])
            run.truncate_metrics(1)
            self.assertEqual(json.loads(open(run.metrics_path).read())["step"], 1)


if __name__ == "__main__":
    unittest.main()
