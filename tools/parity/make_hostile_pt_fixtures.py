"""Writes the hostile checkpoints of the hardening tests into test/fixtures/pt/ (small files that
would hang or balloon a naive reader; the tests expect each to be refused quickly, naming the file):
  dag-args.pt      a valid LiNO checkpoint whose args hold a DAG of 64 levels of [a, a]
                   ("billion laughs": 16 KB on disk, 2^64 nodes when walked as a tree)
  zero-stride.pt   8 tensors of shape (2^27,) with stride (0,) over a 1-element FloatStorage
  huge-shape.pt    a tensor of shape (2^30, 2^30) with strides (0, 0) over a 1-element storage
  cyclic-args.pt   a valid LiNO checkpoint whose args hold a list that contains itself
Run: /usr/bin/python3 tools/parity/make_hostile_pt_fixtures.py [OUT_DIR]"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))  # the repository root
from scaleout.model import from_config  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "test", "fixtures", "pt")


def small_checkpoint(args):
    torch.manual_seed(7)
    cfg = {"dims": 1, "inChannels": 2, "outChannels": 1, "width": 4, "depth": 1, "scattering": "standard",
           "components": ["reflection", "refraction", "scattering"]}
    return {"epoch": 1, "model_state_dict": from_config(cfg).state_dict(), "args": args}


def main():
    os.makedirs(OUT, exist_ok=True)
    a = []
    for _ in range(64):
        a = [a, a]
    torch.save(small_checkpoint({"num_features": 4, "x": a}), os.path.join(OUT, "dag-args.pt"))
    one = torch.tensor([1.0])
    torch.save({f"t{i}": one.expand(2 ** 27) for i in range(8)}, os.path.join(OUT, "zero-stride.pt"))
    torch.save({"model_state_dict": {"w": one.expand(2 ** 30, 2 ** 30)}}, os.path.join(OUT, "huge-shape.pt"))
    c = []
    c.append(c)
    torch.save(small_checkpoint({"num_features": 4, "x": c}), os.path.join(OUT, "cyclic-args.pt"))
    for n in ("dag-args.pt", "zero-stride.pt", "huge-shape.pt", "cyclic-args.pt"):
        print(f"{n}: {os.path.getsize(os.path.join(OUT, n))} bytes")


if __name__ == "__main__":
    main()
