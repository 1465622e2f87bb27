"""Times one training step (forward, backward, AdamW update) of a reference model (LiNO, or with
--kind the FNO / DeepONet baselines of scaleout/), for the bench.
Prints one JSON line: {"median_ms": ..., "times_ms": [...], "cpu_ms": [...], "threads": T, "steps": n}
(cpu_ms: the process's CPU time per step, all threads, which a loaded machine disturbs less than wall time).
  /usr/bin/python3 tools/parity/bench_step.py --config '{"dims":2,...}' --grid 32 32 --batch 4 --threads 1 --steps 5"""
import argparse
import json
import os
import statistics
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--config", required=True)
ap.add_argument("--kind", default="lino", choices=["lino", "fno", "deeponet"], help="the model kind (its registry config as --config)")
ap.add_argument("--grid", type=int, nargs="+", required=True)
ap.add_argument("--batch", type=int, default=4)
ap.add_argument("--threads", type=int, default=1)
ap.add_argument("--steps", type=int, default=5)
ap.add_argument("--warmup", type=int, default=1)
ap.add_argument("--device", default="cpu", help="cpu or cuda (the GPU bench, bench/gpu)")
ap.add_argument("--profile", action="store_true", help="also count the forward's top-level aten ops")
a = ap.parse_args()

import torch  # noqa: E402
torch.set_num_threads(a.threads)
sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))  # the repository root: the scaleout package
if a.kind == "lino":
    from scaleout.model import from_config  # noqa: E402
else:
    from_config = __import__(f"scaleout.{a.kind}_ref", fromlist=["from_config"]).from_config

cfg = json.loads(a.config)
torch.manual_seed(0)
dev = torch.device(a.device)
model = from_config(cfg).to(dev)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-5, betas=(0.9, 0.999), eps=1e-8)
x = torch.randn([a.batch] + a.grid + [cfg["inChannels"]]).to(dev)
y = torch.randn([a.batch] + a.grid + [cfg["outChannels"]]).to(dev)
sync = torch.cuda.synchronize if dev.type == "cuda" else (lambda: None)
times = []
cpu = []
for i in range(a.warmup + a.steps):
    sync()
    t0 = time.perf_counter()
    c0 = time.process_time()
    opt.zero_grad(set_to_none=True)
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    sync()
    dt = (time.perf_counter() - t0) * 1e3
    dc = (time.process_time() - c0) * 1e3
    if i >= a.warmup:
        times.append(dt)
        cpu.append(dc)
ops = None
if a.profile:
    from torch.profiler import profile, ProfilerActivity
    with torch.no_grad(), profile(activities=[ProfilerActivity.CPU]) as prof:
        model(x)
    # top-level aten ops: events with no parent (children are the ops they dispatch to)
    ops = sum(1 for e in prof.events() if e.cpu_parent is None and e.name.startswith("aten::"))
print(json.dumps({"median_ms": statistics.median(times), "times_ms": times, "cpu_ms": cpu, "threads": a.threads, "steps": a.steps, "torch": torch.__version__, "device": a.device, "aten_ops": ops, "kind": a.kind}))
