# Use a LiNO Workbench run in PyTorch: rebuild the model from its best checkpoint alone (weights,
# model config and normalizers are all in the safetensors file) and predict one sample.
#   python3 tools/use_in_pytorch.py RUN_DIR INPUT.npy OUTPUT.npy
# INPUT.npy: one sample in physical units, channels last: [H, W, C] (2D) or [Q, C] (1D).
# OUTPUT.npy: the prediction in physical units, [H, W, C_out] or [Q, C_out].
import json, struct, sys
import numpy as np
import torch

sys.path.insert(0, ".")  # run from the repository root: the reference LiNO (scaleout/model.py), same modules and state_dict names
from scaleout.model import from_config, grid_coords


def read_safetensors(path):
    """Tensors and __metadata__ of a safetensors file (numpy only; `safetensors.safe_open` works too)."""
    buf = open(path, "rb").read()
    n = struct.unpack("<Q", buf[:8])[0]
    header = json.loads(buf[8:8 + n])
    meta = header.pop("__metadata__", {})
    tensors = {k: torch.from_numpy(np.frombuffer(buf[8 + n + v["data_offsets"][0]:8 + n + v["data_offsets"][1]],
                                                 dtype=np.float32).reshape(v["shape"]).copy())
               for k, v in header.items()}
    return tensors, meta


run_dir, input_path, output_path = sys.argv[1:4]
weights, meta = read_safetensors(f"{run_dir}/checkpoints/best/weights.safetensors")
cfg = json.loads(meta["lino.model_config"])
model = from_config(cfg)
model.load_state_dict(weights, strict=True)
model.eval()
xn, yn = json.loads(meta["lino.x_normalizer"]), json.loads(meta["lino.y_normalizer"])
if meta["lino.normalized"] != "true":  # a run trained on raw values
    xn = yn = {"mean": 0.0, "std": 1.0, "eps": 0.0}

a = np.load(input_path).astype(np.float32)
grid = a.shape[:-1]
x = (torch.from_numpy(a) - xn["mean"]) / (xn["std"] + xn["eps"])           # normalize
x = torch.cat([x.reshape(-1, a.shape[-1]), grid_coords(grid)], dim=-1)    # + coordinates linspace(0, 1) per axis
with torch.no_grad():
    y = model(x.reshape(1, *grid, cfg["inChannels"]))[0]
y = y * (yn["std"] + yn["eps"]) + yn["mean"]                               # back to physical units
np.save(output_path, y.numpy())
print(f"{output_path}: {tuple(y.shape)}")
