"""The workbench's run folder (main/runs/run-store.ts, main/runs/checkpoint.ts), written from Python:
config.json (atomic), status.json (atomic), metrics.jsonl (append-only, fsynced at epoch ends),
events.log, and checkpoints/{last,best}/ = weights.safetensors (state_dict names), optimizer.safetensors
(exp_avg.<name>, exp_avg_sq.<name>) and state.json (sha256 of both), swapped in by renames."""
import datetime
import hashlib
import json
import os
import shutil
import socket

import numpy as np

from . import safetensors_io as st


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _fsync_dir(d):
    try:
        fd = os.open(d, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass  # some file systems cannot open a folder; the rename is still atomic


def write_atomic(path, data):
    """Temporary sibling, fsync, rename, fsync the folder: a reader sees the old file or the new one."""
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    tmp = os.path.join(d, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync_dir(d)


def write_json_atomic(path, obj):
    write_atomic(path, json.dumps(obj, indent=2) + "\n")


class RunFolder:
    def __init__(self, d):
        self.dir = os.path.abspath(d)
        self.config_path = os.path.join(self.dir, "config.json")
        self.metrics_path = os.path.join(self.dir, "metrics.jsonl")

    def read_config(self):
        try:
            with open(self.config_path) as f:
                return json.load(f)
        except (OSError, ValueError) as e:
            raise SystemExit(f"{self.config_path}: cannot read the run configuration ({e})")

    def write_status(self, state, **fields):
        s = {"state": state, "pid": os.getpid(), "host": socket.gethostname(), **fields, "updatedAt": now_iso()}
        write_json_atomic(os.path.join(self.dir, "status.json"), s)

    def log(self, message):
        with open(os.path.join(self.dir, "events.log"), "a") as f:
            f.write(f"{now_iso()} {message}\n")

    def append_metrics(self, records, sync=False):
        with open(self.metrics_path, "a") as f:
            f.write("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records))
            if sync:
                f.flush()
                os.fsync(f.fileno())

    def read_metrics(self):
        """Parsed records; a torn last line (a crash mid-write) is skipped, as the workbench does."""
        out = []
        try:
            with open(self.metrics_path) as f:
                for line in f:
                    if line.strip():
                        try:
                            out.append(json.loads(line))
                        except ValueError:
                            pass
        except FileNotFoundError:
            pass
        return out

    def truncate_metrics(self, n):
        recs = self.read_metrics()[:n]
        write_atomic(self.metrics_path, "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in recs))

    def save_checkpoint(self, name, weights, exp_avg, exp_avg_sq, state):
        """weights/moments: {state_dict name: float32 ndarray}. Written to .<name>.tmp, then swapped in."""
        root = os.path.join(self.dir, "checkpoints")
        os.makedirs(root, exist_ok=True)
        tmp, cur, old = (os.path.join(root, n) for n in (f".{name}.tmp", name, f".{name}.old"))
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        for k, a in weights.items():
            if not np.all(np.isfinite(a)):
                raise FloatingPointError(f"non-finite weights ({k}) at the end of epoch {state['epoch']}; not saved as a checkpoint")
        moments = {f"exp_avg.{k}": v for k, v in exp_avg.items()}
        moments.update({f"exp_avg_sq.{k}": v for k, v in exp_avg_sq.items()})
        w_bytes = st.dumps(weights, {"format": "pt"})
        o_bytes = st.dumps(moments)
        write_atomic(os.path.join(tmp, "weights.safetensors"), w_bytes)
        write_atomic(os.path.join(tmp, "optimizer.safetensors"), o_bytes)
        files = {"weights.safetensors": hashlib.sha256(w_bytes).hexdigest(), "optimizer.safetensors": hashlib.sha256(o_bytes).hexdigest()}
        write_json_atomic(os.path.join(tmp, "state.json"), {**state, "files": files})
        shutil.rmtree(old, ignore_errors=True)
        if os.path.exists(cur):
            os.rename(cur, old)
        os.rename(tmp, cur)
        shutil.rmtree(old, ignore_errors=True)

    def load_checkpoint(self, name):
        """(state, weights, exp_avg, exp_avg_sq) of a complete checkpoint, checksums verified; None if absent."""
        root = os.path.join(self.dir, "checkpoints")
        for d in (os.path.join(root, n) for n in (name, f".{name}.tmp", f".{name}.old")):
            if all(os.path.exists(os.path.join(d, f)) for f in ("state.json", "weights.safetensors", "optimizer.safetensors")):
                break
        else:
            return None
        with open(os.path.join(d, "state.json")) as f:
            state = json.load(f)
        for fname, want in (state.get("files") or {}).items():
            with open(os.path.join(d, fname), "rb") as f:
                got = hashlib.sha256(f.read()).hexdigest()
            if got != want:
                raise SystemExit(f"{os.path.join(d, fname)}: sha256 {got[:16]}... does not match the {want[:16]}... recorded in state.json")
        weights = st.load(os.path.join(d, "weights.safetensors"))
        mom = st.load(os.path.join(d, "optimizer.safetensors"))
        exp_avg = {k[len("exp_avg."):]: v for k, v in mom.items() if k.startswith("exp_avg.")}
        exp_avg_sq = {k[len("exp_avg_sq."):]: v for k, v in mom.items() if k.startswith("exp_avg_sq.")}
        return state, weights, exp_avg, exp_avg_sq
