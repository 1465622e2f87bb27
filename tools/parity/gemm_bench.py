"""Times LiNO's three GEMM products with torch.matmul, for the GEMM table of the GPU bench and of
`npm run bench gemm` (bench/gemm-table.ts gives the shapes). Per shape: median over rounds of the
mean time of `iters` back-to-back calls, synchronized around each round on CUDA.
Prints one JSON line: {"torch": version, "device": d, "ms": {"<product> M<m>": ms, ...}}.
  python3 tools/parity/gemm_bench.py --rows 28900 --widths 32 64 128 --device cuda"""
import argparse
import json
import statistics
import time

ap = argparse.ArgumentParser()
ap.add_argument("--rows", type=int, required=True, help="B*N, the rows of the activations")
ap.add_argument("--widths", type=int, nargs="+", required=True, help="M: the weights are M x M")
ap.add_argument("--device", default="cpu")
ap.add_argument("--iters", type=int, default=20)
ap.add_argument("--rounds", type=int, default=5)
ap.add_argument("--threads", type=int, default=4)
a = ap.parse_args()

import torch  # noqa: E402
torch.set_num_threads(a.threads)
dev = torch.device(a.device)
sync = torch.cuda.synchronize if dev.type == "cuda" else (lambda: None)
out = {}
for m in a.widths:
    x = torch.randn(a.rows, m, device=dev)
    dy = torch.randn(a.rows, m, device=dev)
    w = torch.randn(m, m, device=dev)
    # the names match bench/gemm-table.ts
    products = {"forward x W^T": lambda: torch.matmul(x, w.t()), "dX = dY W": lambda: torch.matmul(dy, w), "dW = dY^T X": lambda: torch.matmul(dy.t(), x)}
    for name, f in products.items():
        f()
        rounds = []
        for _ in range(a.rounds):
            sync()
            t0 = time.perf_counter()
            for _ in range(a.iters):
                f()
            sync()
            rounds.append((time.perf_counter() - t0) * 1e3 / a.iters)
        out[f"{name} M{m}"] = statistics.median(rounds)
print(json.dumps({"torch": torch.__version__, "device": a.device, "ms": out}))
