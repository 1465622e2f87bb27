"""Times a few training steps of one model on random data, for the workbench's backend picker
("torch cpu: 2.1x faster than wasm here"): the same step as scaleout.train (forward, the workbench's
objective, backward, global-norm clipping, torch.optim.AdamW), on the device a run would use, with
torch's default threads as a run has them.

  python -m scaleout.calibrate --model MODEL.json --grid 32 32 --batch 4 --steps 5 --device cpu

MODEL.json (or the JSON text itself) is the model as the workbench builds it ({kind, dims, inChannels, outChannels, ...}).
Prints one line 'LINO_TORCH_SPEED {json}': warmupMs (the first step), timesMs (each timed step),
medianMs, threads, torch, device."""
import argparse
import json
import sys
import time

import torch

from .protocol import share_objective
from .train import build_model, setup

MARK = "LINO_TORCH_SPEED "


def sync(device):
    """Waits for the device's queued kernels, so a step's time is its work and not its launch."""
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    elif device.type == "mps":
        torch.mps.synchronize()


def main(argv=None):
    ap = argparse.ArgumentParser(prog="scaleout.calibrate", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, help="the model as the workbench builds it: a JSON file, or the JSON itself")
    ap.add_argument("--grid", type=int, nargs="+", required=True, help="the grid, e.g. 32 32")
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--steps", type=int, default=5, help="timed steps after one warm-up step")
    ap.add_argument("--device", choices=("cpu", "cuda", "mps"), default="cpu")
    a = ap.parse_args(argv)
    if a.batch < 1 or a.steps < 1 or any(g < 2 for g in a.grid):
        raise SystemExit(f"--batch and --steps must be at least 1 and every --grid side at least 2, got batch {a.batch}, steps {a.steps}, grid {a.grid}")
    try:
        if a.model.lstrip().startswith("{"):
            spec = json.loads(a.model)
        else:
            with open(a.model) as f:
                spec = json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit(f"{a.model}: {e} (the model as the workbench builds it)")
    _, _, device, _ = setup(a.device)
    torch.manual_seed(0)
    net = build_model(spec, a.model).to(device)
    net.train()
    opt = torch.optim.AdamW(net.parameters(), lr=1e-3, weight_decay=1e-4)
    g = torch.Generator().manual_seed(7)
    x = torch.randn([a.batch] + a.grid + [spec["inChannels"]], generator=g).to(device)
    y = torch.randn([a.batch] + a.grid + [spec["outChannels"]], generator=g).to(device)

    def step():
        opt.zero_grad(set_to_none=True)
        loss, _ = share_objective(net(x), y, a.batch, None)
        loss.backward()
        torch.nn.utils.clip_grad_norm_([p for p in net.parameters() if p.grad is not None], 1.0)
        opt.step()
        sync(device)

    t0 = time.perf_counter()
    step()
    warmup = (time.perf_counter() - t0) * 1e3
    times = []
    for _ in range(a.steps):
        t0 = time.perf_counter()
        step()
        times.append((time.perf_counter() - t0) * 1e3)
    s = sorted(times)
    out = {"warmupMs": warmup, "timesMs": times, "medianMs": s[len(s) // 2], "threads": torch.get_num_threads(),
           "torch": torch.__version__, "device": device.type}
    print(MARK + json.dumps(out), flush=True)


if __name__ == "__main__":
    sys.exit(main())
