"""Counts the top-level aten ops the reference LiNO runs, for the kernel-count bench.
"Top-level" = an aten:: event with no aten:: ancestor (what a user-level op dispatches;
the ops it calls internally are not counted). Prints one JSON line:
{"forward": n, "forward_backward": n, "by_name": {...forward...}, "torch": version}
  /usr/bin/python3 tools/parity/count_ops.py --config '{"dims":2,...}' --grid 32 32 --batch 4"""
import argparse
import collections
import json
import os
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--config", required=True)
ap.add_argument("--grid", type=int, nargs="+", required=True)
ap.add_argument("--batch", type=int, default=4)
a = ap.parse_args()

import torch  # noqa: E402
from torch.profiler import profile, ProfilerActivity  # noqa: E402
torch.set_num_threads(1)
sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))  # the repository root: the scaleout package
from scaleout.model import from_config  # noqa: E402

cfg = json.loads(a.config)
torch.manual_seed(0)
model = from_config(cfg)
x = torch.randn([a.batch] + a.grid + [cfg["inChannels"]])
y = torch.randn([a.batch] + a.grid + [cfg["outChannels"]])


def top_level(events):
    out = []
    for e in events:
        if not e.name.startswith("aten::"):
            continue
        p = e.cpu_parent
        while p is not None and not p.name.startswith("aten::"):
            p = p.cpu_parent
        if p is None:
            out.append(e.name)
    return out


def count(fn):
    fn()  # warm-up: first-call allocations and dispatch caches
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        fn()
    return top_level(prof.events())


def fwd():
    with torch.no_grad():
        model(x)


def fwd_bwd():
    model.zero_grad(set_to_none=True)
    ((model(x) - y) ** 2).mean().backward()


f = count(fwd)
fb = count(fwd_bwd)
print(json.dumps({"forward": len(f), "forward_backward": len(fb), "by_name": dict(collections.Counter(f).most_common()), "torch": torch.__version__}))
