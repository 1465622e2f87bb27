"""Writes test/fixtures/lightmaps/: per case <case>.weights.safetensors and <case>.maps.safetensors
(x, and every light map named as the CLI's files), plus cases.json (config, query).
Maps are computed in float64 from the float32 weights/inputs, then stored as float32.
Run: /usr/bin/python3 tools/parity/make_lightmap_fixtures.py"""
import json
import os
import sys
import torch

sys.path.insert(0, os.path.dirname(__file__))
from scaleout.model import from_config  # noqa: E402
from light_maps_ref import light_maps  # noqa: E402
from make_fixtures import perturb  # noqa: E402
import scaleout.safetensors_io as st  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "test", "fixtures", "lightmaps")
ALL = ["reflection", "refraction", "scattering"]
CASES = [
    ("1d-all-full", 1, ALL, "full", [5]),
    ("1d-all-eff", 1, ALL, "efficient", [0]),
    ("2d-all-full", 2, ALL, "full", [2, 1]),
    ("2d-all-eff", 2, ALL, "efficient", [4, 3]),
    ("2d-rs-eff", 2, ["reflection", "scattering"], "efficient", [0, 2]),   # refraction ablated
    ("1d-rt", 1, ["reflection", "refraction"], "efficient", None),         # no scattering, no query
]
GRIDS = {1: [12], 2: [5, 4]}


def main():
    os.makedirs(OUT, exist_ok=True)
    cases = []
    for i, (name, dims, comps, scat, query) in enumerate(CASES):
        cfg = {"dims": dims, "inChannels": 3, "outChannels": 2, "width": 8, "depth": 2,
               "scattering": scat, "components": comps}
        torch.manual_seed(2000 + i)
        gen = torch.Generator().manual_seed(70 + i)
        model = from_config(cfg)
        perturb(model, gen)
        grid = GRIDS[dims]
        x = torch.randn([2] + grid + [3], generator=gen)
        st.save(os.path.join(OUT, f"{name}.weights.safetensors"),
                {k: v.detach().numpy().copy() for k, v in model.state_dict().items()})
        flat = None
        if query is not None:
            flat = query[0] if dims == 1 else query[0] * grid[1] + query[1]
        maps = light_maps(model.double(), x.double(), flat)
        io = {"x": x.numpy()}
        io.update({k: v.float().numpy() for k, v in maps.items()})
        st.save(os.path.join(OUT, f"{name}.maps.safetensors"), io)
        cases.append({"name": name, "config": cfg, "query": query})
    with open(os.path.join(OUT, "cases.json"), "w") as f:
        json.dump({"generator": "tools/parity/make_lightmap_fixtures.py", "torch": torch.__version__, "cases": cases}, f, indent=1)
    print(f"wrote {len(cases)} cases to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
