"""Times one training step (forward, backward, AdamW update) of the reference LiNO, for the bench.
Prints one JSON line: {"median_ms": ..., "threads": T, "steps": n}.
  /usr/bin/python3 tools/parity/bench_step.py --config '{"dims":2,...}' --grid 32 32 --batch 4 --threads 1 --steps 5"""
import argparse
import json
import os
import statistics
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--config", required=True)
ap.add_argument("--grid", type=int, nargs="+", required=True)
ap.add_argument("--batch", type=int, default=4)
ap.add_argument("--threads", type=int, default=1)
ap.add_argument("--steps", type=int, default=5)
ap.add_argument("--warmup", type=int, default=1)
a = ap.parse_args()

import torch  # noqa: E402
torch.set_num_threads(a.threads)
sys.path.insert(0, os.path.dirname(__file__))
from lino_ref import from_config  # noqa: E402

cfg = json.loads(a.config)
torch.manual_seed(0)
model = from_config(cfg)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-5, betas=(0.9, 0.999), eps=1e-8)
x = torch.randn([a.batch] + a.grid + [cfg["inChannels"]])
y = torch.randn([a.batch] + a.grid + [cfg["outChannels"]])
times = []
for i in range(a.warmup + a.steps):
    t0 = time.perf_counter()
    opt.zero_grad(set_to_none=True)
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    dt = (time.perf_counter() - t0) * 1e3
    if i >= a.warmup:
        times.append(dt)
print(json.dumps({"median_ms": statistics.median(times), "times_ms": times, "threads": a.threads, "steps": a.steps, "torch": torch.__version__}))
