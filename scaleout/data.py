"""A dataset exported by the workbench in the 'prepared' layout (main/data/export.ts,
`lino data export ID --format npy --layout prepared`, or `lino export-run`): normalized channels-last
float32 arrays {train,val,test}_{x,y}.npy [n, ...grid, C] and <id>.manifest.json with the normalizer
and, for Navier-Stokes, parameters.ns = {tIn, tOut}."""
import glob
import json
import os

import numpy as np


def load_export(d):
    manifests = sorted(glob.glob(os.path.join(d, "*.manifest.json")))
    if not manifests:
        raise SystemExit(f"{d}: no <id>.manifest.json: not a dataset exported by the workbench (lino data export ... --layout prepared)")
    with open(manifests[0]) as f:
        manifest = json.load(f)
    layout = (manifest.get("export") or {}).get("layout")
    if layout != "prepared":
        raise SystemExit(f"{manifests[0]}: field 'export.layout' is {layout!r}, expected 'prepared' (export with --layout prepared)")
    splits = {}
    for sp in ("train", "val", "test"):
        px, py = (os.path.join(d, f"{sp}_{w}.npy") for w in ("x", "y"))
        if not os.path.exists(px):
            if sp == "test":
                continue
            raise SystemExit(f"{px}: missing (the {sp} split's inputs)")
        x, y = np.load(px, mmap_mode="r"), np.load(py, mmap_mode="r")
        if x.dtype != np.float32 or y.dtype != np.float32 or x.shape[0] != y.shape[0]:
            raise SystemExit(f"{px}: expected float32 x and y with the same number of rows, got {x.dtype}{x.shape} and {y.dtype}{y.shape}")
        if x.shape[0] > 0:
            splits[sp] = (x, y)
    ns = (manifest.get("parameters") or {}).get("ns")
    ar = {"tIn": int(ns["tIn"]), "tOut": int(ns["tOut"])} if ns else None
    norm = manifest["normalization"]
    ystats = {"mean": norm["y"]["mean"], "std": norm["y"]["std"], "eps": norm.get("eps", 1e-5)} if norm.get("applied") else {"mean": 0.0, "std": 1.0, "eps": 0.0}
    return {"manifest": manifest, "splits": splits, "ar": ar, "ystats": ystats, "grid": list(manifest["grid"])}
