"""Writes test/fixtures/parity/deeponet/: per case <case>.weights.safetensors (state_dict, float32)
and <case>.io.safetensors (x, loss_weight, y, grad.<param>), plus cases.json. References in float64
from the float32 weights/inputs, stored as float32. The bias is drawn non-zero so its gradient and
its sum are both checked.
Run: /usr/bin/python3 tools/parity/make_deeponet_fixtures.py"""
import copy
import json
import os
import sys
import torch

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, ROOT)
from scaleout.deeponet_ref import from_config, state_dict_numpy  # noqa: E402
import scaleout.safetensors_io as st  # noqa: E402

OUT = os.path.join(ROOT, "test", "fixtures", "parity", "deeponet")

CASES = [
    ("1d", {"dims": 1, "inChannels": 1, "outChannels": 1, "grid": [16], "width": 12, "layers": 4, "basis": 10}, [16]),
    ("1d-multi", {"dims": 1, "inChannels": 3, "outChannels": 2, "grid": [8], "width": 7, "layers": 2, "basis": 5}, [8]),
    ("2d", {"dims": 2, "inChannels": 2, "outChannels": 1, "grid": [6, 5], "width": 9, "layers": 3, "basis": 8}, [6, 5]),
    ("2d-multi", {"dims": 2, "inChannels": 1, "outChannels": 3, "grid": [4, 7], "width": 6, "layers": 1, "basis": 4}, [4, 7]),
]


def main():
    os.makedirs(OUT, exist_ok=True)
    cases = []
    for i, (name, cfg, grid) in enumerate(CASES):
        torch.manual_seed(3000 + i)
        gen = torch.Generator().manual_seed(21 + i)
        model = from_config(cfg)
        with torch.no_grad():
            model.bias.copy_(torch.randn(cfg["outChannels"], generator=gen))
        st.save(os.path.join(OUT, f"{name}.weights.safetensors"), state_dict_numpy(model))
        x = torch.randn([2] + grid + [cfg["inChannels"]], generator=gen)
        w = torch.randn([2] + grid + [cfg["outChannels"]], generator=gen)
        m64 = copy.deepcopy(model).double()
        y = m64(x.double())
        (y * w.double()).sum().backward()
        io = {"x": x.numpy(), "loss_weight": w.numpy(), "y": y.detach().float().numpy()}
        for k, p in m64.named_parameters():
            io[f"grad.{k}"] = p.grad.float().numpy()
        st.save(os.path.join(OUT, f"{name}.io.safetensors"), io)
        cases.append({"name": name, "config": {**cfg, "seed": 1}, "grid": grid, "loss": "sum(y * loss_weight)"})
    with open(os.path.join(OUT, "cases.json"), "w") as f:
        json.dump({"generator": "tools/parity/make_deeponet_fixtures.py", "torch": torch.__version__, "cases": cases}, f, indent=1)
    print(f"wrote {len(cases)} cases to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
