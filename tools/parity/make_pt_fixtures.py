"""Writes test/fixtures/pt/: torch.save checkpoints in the LiNO release's layout, each with a fixed
input and the reference model's output (.npy), plus hostile files for the safe reader's tests.
  <case>.pt            {model_state_dict, optimizer_state_dict, scheduler_state_dict, epoch,
                        best_val_rel, args, x_normalizer, y_normalizer} (+ 'strided': a
                        transposed/sliced tensor the reader must copy contiguously)
  <case>.x.npy / .y.npy  input [B, *grid, C_in] (already normalized) and the raw projection,
                        computed in float64 from the float32 weights, stored float32
  <case>.strided.npy   the strided tensor's values, contiguous
  payload-os-system.pt a zip in the same layout whose data.pkl reduces os.system (would touch
                        PAYLOAD_MARKER); never load it with torch.load
  bad-opcode.pt        data.pkl with opcode 0xff
  short-storage.pt     a valid checkpoint whose data/0 was cut to 4 bytes
  manifest.json        the cases, their configs and the torch version that wrote them
Run: /usr/bin/python3 tools/parity/make_pt_fixtures.py [OUT_DIR]"""
import io
import json
import os
import sys
import zipfile

import numpy as np
import torch

# the reference model lives in the repository's scaleout/ package, two folders up
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from scaleout.model import from_config  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "test", "fixtures", "pt")
PAYLOAD_MARKER = "/tmp/lino-pt-payload-ran"

CASES = [
    # name, dims, grid, scattering as the release names it, components
    ("release-2d-eff", 2, [6, 5], "efficient", ["reflection", "refraction", "scattering"]),
    ("release-1d-standard", 1, [10], "standard", ["reflection", "refraction", "scattering"]),
]


def write_case(name, dims, grid, scat, comps, seed):
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed + 1)
    cin, cout, width, depth = 1 + dims, 1, 8, 2
    cfg = {"dims": dims, "inChannels": cin, "outChannels": cout, "width": width, "depth": depth, "scattering": scat, "components": comps}
    model = from_config(cfg)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-5)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=5, gamma=0.96)
    x = torch.randn([2] + grid + [cin], generator=gen)
    for _ in range(2):  # real optimizer and scheduler state, and weights off their initial values
        opt.zero_grad()
        model(x).pow(2).mean().backward()
        opt.step()
        sched.step()
    base = torch.arange(24, dtype=torch.float32).reshape(4, 6)
    strided = base.t()[1:5:2]  # shape [2, 4], stride (1, 6), storage offset 1
    ckpt = {
        "epoch": 7,
        "model_state_dict": model.state_dict(),
        "optimizer_state_dict": opt.state_dict(),
        "scheduler_state_dict": sched.state_dict(),
        "best_val_rel": 0.0123,
        "args": {"num_features": width, "depth": depth, "scattering_type": scat, "in_channels": cin, "out_channels": cout,
                 "batch_size": 4, "epochs": 500, "lr": 1e-3, "seed": 42, "target_size": tuple(grid), "use_coord": True},
        "x_normalizer": {"mean": torch.tensor(0.75), "std": torch.tensor(1.5), "eps": 1e-5},
        "y_normalizer": {"mean": torch.tensor(-0.25), "std": torch.tensor(0.5), "eps": 1e-5},
        "strided": strided,
    }
    torch.save(ckpt, os.path.join(OUT, f"{name}.pt"))
    with torch.no_grad():
        y = model.double()(x.double()).float().numpy()
    np.save(os.path.join(OUT, f"{name}.x.npy"), x.numpy())
    np.save(os.path.join(OUT, f"{name}.y.npy"), y)
    np.save(os.path.join(OUT, f"{name}.strided.npy"), strided.contiguous().numpy())
    return {"name": name, "config": cfg, "epoch": 7, "bestValRel": 0.0123,
            "xNormalizer": {"mean": 0.75, "std": 1.5, "eps": 1e-5}, "yNormalizer": {"mean": -0.25, "std": 0.5, "eps": 1e-5},
            "keys": {k: list(v.shape) for k, v in model.state_dict().items()}}


def payload_pickle():
    """The classic hostile pickle: unpickling calls os.system. Written opcode by opcode because
    pickle.dumps of a __reduce__ returning os.system names 'posix.system' on Linux; this names
    'os.system' as hand-made payloads do (pickle.loads of it does run the command)."""
    cmd = f"touch {PAYLOAD_MARKER}".encode()
    key = b"model_state_dict"
    return (b"\x80\x02}q\x00X" + len(key).to_bytes(4, "little") + key + b"q\x01cos\nsystem\nq\x02X"
            + len(cmd).to_bytes(4, "little") + cmd + b"\x85q\x03Rq\x04s.")


def write_zip(path, pkl, extra=None):
    prefix = os.path.splitext(os.path.basename(path))[0]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr(f"{prefix}/data.pkl", pkl)
        for k, v in (extra or {}).items():
            z.writestr(f"{prefix}/{k}", v)
        z.writestr(f"{prefix}/version", "3\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    cases = [write_case(n, d, g, s, c, 100 + i) for i, (n, d, g, s, c) in enumerate(CASES)]
    write_zip(os.path.join(OUT, "payload-os-system.pt"), payload_pickle())
    write_zip(os.path.join(OUT, "bad-opcode.pt"), b"\x80\x02}q\x00\xff.")
    # A real checkpoint with a storage cut short.
    buf = io.BytesIO()
    torch.save({"model_state_dict": {"w": torch.arange(6, dtype=torch.float32)}}, buf)
    src = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    with zipfile.ZipFile(os.path.join(OUT, "short-storage.pt"), "w", zipfile.ZIP_STORED) as z:
        for info in src.infolist():
            data = src.read(info.filename)
            z.writestr(info.filename.replace("archive/", "short-storage/"), data[:4] if info.filename.endswith("/data/0") else data)
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump({"generator": "tools/parity/make_pt_fixtures.py", "torch": torch.__version__, "payloadMarker": PAYLOAD_MARKER, "cases": cases}, f, indent=1)
    print(f"wrote {len(cases)} cases and 3 hostile files to {os.path.normpath(OUT)} (torch {torch.__version__})")


if __name__ == "__main__":
    main()
