"""Minimal safetensors reader/writer (the `safetensors` package is not installed on Debian)."""
import json
import struct
import numpy as np

_DT = {"F32": np.float32, "F64": np.float64, "I32": np.int32, "I64": np.int64, "F16": np.float16}
_NAME = {np.dtype(v): k for k, v in _DT.items()}


def save(path, tensors, metadata=None):
    with open(path, "wb") as f:
        f.write(dumps(tensors, metadata))


def dumps(tensors, metadata=None):
    """The file's bytes (the run writer hashes them for state.json before writing)."""
    header, blobs, off = {}, [], 0
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    for name in sorted(tensors):
        a = np.asarray(tensors[name])
        a = a if a.flags.c_contiguous else a.copy(order="C")  # not ascontiguousarray: it makes 0-d arrays 1-d
        raw = a.tobytes()
        header[name] = {"dtype": _NAME[a.dtype], "shape": list(a.shape), "data_offsets": [off, off + len(raw)]}
        blobs.append(raw)
        off += len(raw)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    return b"".join([struct.pack("<Q", len(h)), h] + blobs)


def load(path):
    with open(path, "rb") as f:
        buf = f.read()
    (n,) = struct.unpack("<Q", buf[:8])
    if 8 + n > len(buf):
        raise ValueError(f"{path}: header size {n} exceeds file length {len(buf)}")
    header = json.loads(buf[8:8 + n])
    base = 8 + n
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        b, e = info["data_offsets"]
        out[name] = np.frombuffer(buf[base + b:base + e], dtype=_DT[info["dtype"]]).reshape(info["shape"]).copy()
    return out
