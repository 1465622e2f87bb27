"""Loads a safetensors weights file into the reference LiNO with strict load_state_dict and,
given --io, runs the forward on its 'x' and writes 'y' to --out (a safetensors file).
Exit 0 and prints 'ok <n> keys' on success. Used by the round-trip test and by hand:
  /usr/bin/python3 tools/parity/check_load.py --config model.json --weights w.safetensors [--io in.safetensors --out out.safetensors]"""
import argparse
import json
import os
import sys
import torch

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))  # the repository root: the scaleout package
from scaleout.model import from_config  # noqa: E402
import scaleout.safetensors_io as st  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--config", required=True)
ap.add_argument("--weights", required=True)
ap.add_argument("--io")
ap.add_argument("--out")
a = ap.parse_args()
cfg = json.load(open(a.config))
model = from_config(cfg)
sd = {k: torch.from_numpy(v) for k, v in st.load(a.weights).items()}
model.load_state_dict(sd, strict=True)
print(f"ok {len(sd)} keys")
if a.io:
    x = torch.from_numpy(st.load(a.io)["x"])
    with torch.no_grad():
        y = model.double()(x.double()).float().numpy()
    st.save(a.out, {"y": y})
