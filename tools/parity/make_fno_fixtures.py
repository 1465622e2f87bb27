"""Writes test/fixtures/parity/fno/: per case <case>.weights.safetensors (state_dict, float32,
complex weights as real/imag pairs) and <case>.io.safetensors (x, loss_weight, y, grad.<param>),
plus cases.json. References in float64 from the float32 weights/inputs, stored as float32.
Run: /usr/bin/python3 tools/parity/make_fno_fixtures.py"""
import copy
import json
import os
import sys
import torch

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, ROOT)
from scaleout.fno_ref import from_config, state_dict_real  # noqa: E402
import scaleout.safetensors_io as st  # noqa: E402

OUT = os.path.join(ROOT, "test", "fixtures", "parity", "fno")

CASES = [
    ("1d", {"dims": 1, "inChannels": 2, "outChannels": 1, "width": 6, "modes": 4, "layers": 4, "projection": 16}, [16]),
    ("1d-nyquist", {"dims": 1, "inChannels": 3, "outChannels": 2, "width": 5, "modes": 5, "layers": 2, "projection": 8}, [8]),
    ("2d", {"dims": 2, "inChannels": 3, "outChannels": 1, "width": 5, "modes": 3, "layers": 4, "projection": 16}, [8, 10]),
    ("2d-odd", {"dims": 2, "inChannels": 1, "outChannels": 2, "width": 4, "modes": 2, "layers": 2, "projection": 8}, [5, 7]),
]


def main():
    os.makedirs(OUT, exist_ok=True)
    cases = []
    for i, (name, cfg, grid) in enumerate(CASES):
        torch.manual_seed(2000 + i)
        gen = torch.Generator().manual_seed(11 + i)
        model = from_config(cfg)
        st.save(os.path.join(OUT, f"{name}.weights.safetensors"), state_dict_real(model))
        x = torch.randn([2] + grid + [cfg["inChannels"]], generator=gen)
        w = torch.randn([2] + grid + [cfg["outChannels"]], generator=gen)
        m64 = copy.deepcopy(model)  # model.double() would drop the imaginary parts
        for p in m64.parameters():
            p.data = p.data.to(torch.complex128 if p.is_complex() else torch.float64)
        y = m64(x.double())
        (y * w.double()).sum().backward()
        io = {"x": x.numpy(), "loss_weight": w.numpy(), "y": y.detach().float().numpy()}
        for k, p in m64.named_parameters():
            g = torch.view_as_real(p.grad) if p.grad.is_complex() else p.grad
            io[f"grad.{k}"] = g.float().numpy()
        st.save(os.path.join(OUT, f"{name}.io.safetensors"), io)
        cases.append({"name": name, "config": {**cfg, "seed": 1}, "grid": grid, "loss": "sum(y * loss_weight)"})
    with open(os.path.join(OUT, "cases.json"), "w") as f:
        json.dump({"generator": "tools/parity/make_fno_fixtures.py", "torch": torch.__version__, "cases": cases}, f, indent=1)
    print(f"wrote {len(cases)} cases to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
