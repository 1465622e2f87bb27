"""Writes test/fixtures/parity/: per case <case>.weights.safetensors (state_dict only, float32) and
<case>.io.safetensors (x, loss_weight, y, alpha.<i>, grad.<param>), plus cases.json.
References are computed in float64 from the float32 weights/inputs, then stored as float32.
Run: /usr/bin/python3 tools/parity/make_fixtures.py"""
import json
import os
import sys
import torch

sys.path.insert(0, os.path.dirname(__file__))
from scaleout.model import from_config  # noqa: E402
import scaleout.safetensors_io as st  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "test", "fixtures", "parity")

ALL = ["reflection", "refraction", "scattering"]
VARIANTS = [
    ("r", ["reflection"], "efficient"),
    ("t", ["refraction"], "efficient"),
    ("s-full", ["scattering"], "full"),
    ("s-eff", ["scattering"], "efficient"),
    ("all-full", ALL, "standard"),   # the release's name for full
    ("all-eff", ALL, "efficient"),
    ("ts-eff", ["refraction", "scattering"], "efficient"),
]
GRIDS = {1: [12], 2: [5, 4]}


def perturb(model, gen):
    """Move scalars and LayerNorm params off their initial values so parity also covers them."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            if p.dim() == 0 or ".norm" in name:
                p.add_(0.3 * torch.randn(p.shape, generator=gen))


def main():
    os.makedirs(OUT, exist_ok=True)
    cases = []
    for dims in (1, 2):
        for tag, comps, scat in VARIANTS:
            name = f"{dims}d-{tag}"
            cfg = {"dims": dims, "inChannels": 3, "outChannels": 2, "width": 8, "depth": 2,
                   "scattering": scat, "components": comps}
            torch.manual_seed(1000 + len(cases))
            gen = torch.Generator().manual_seed(7 + len(cases))
            model = from_config(cfg)
            perturb(model, gen)
            grid = GRIDS[dims]
            x = torch.randn([2] + grid + [3], generator=gen)
            w = torch.randn([2] + grid + [2], generator=gen)
            sd = {k: v.detach().numpy().copy() for k, v in model.state_dict().items()}
            st.save(os.path.join(OUT, f"{name}.weights.safetensors"), sd)
            m64 = model.double()
            y = m64(x.double())
            loss = (y * w.double()).sum()
            loss.backward()
            io = {"x": x.numpy(), "loss_weight": w.numpy(), "y": y.detach().float().numpy()}
            for i, blk in enumerate(m64.blocks):
                io[f"alpha.{i}"] = blk.last_alpha.float().numpy()
            for k, p in m64.named_parameters():
                io[f"grad.{k}"] = p.grad.float().numpy()
            st.save(os.path.join(OUT, f"{name}.io.safetensors"), io)
            cases.append({"name": name, "config": cfg, "loss": "sum(y * loss_weight)"})
    with open(os.path.join(OUT, "cases.json"), "w") as f:
        json.dump({"generator": "tools/parity/make_fixtures.py", "torch": torch.__version__, "cases": cases}, f, indent=1)
    print(f"wrote {len(cases)} cases to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
