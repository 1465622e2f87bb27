"""The workbench's training protocol under torch.distributed (DistributedDataParallel):

  torchrun --nproc_per_node=N -m scaleout.train --run-dir RUN_DIR --data EXPORT_DIR [--config CONFIG.json] [--model MODEL.json]
  python -m scaleout.train ...            (one process, no process group: the same maths)

Per epoch: the batch order is the workbench's seeded sfc32 permutation (scaleout/rng.py); each batch
of B rows is split between the ranks, rank r's loss is its share of the batch objective (shares add
up to the single-process loss) times the world size, because DDP averages gradients over ranks; so
the all-reduced gradient is the single-process gradient of the batch. Then global-norm clipping on
the full gradient, torch.optim.AdamW, StepLR stepped per epoch; validation every epoch on rank 0.

Every model kind of the workbench trains here, through its PyTorch reference: LiNO (model.py), FNO
(fno_ref.py), DeepONet (deeponet_ref.py). Nothing is defaulted here: the export's config.json holds
the run's configuration with every default filled in, and model.json the model as the workbench
builds it on this data."""
import types
import argparse
import contextlib
import datetime
import json
import os
import resource
import sys
import time
import warnings

import numpy as np
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from . import deeponet_ref, fno_ref
from . import model as lino_ref
from .data import load_export
from .rng import Rng
from .runfmt import RunFolder, write_json_atomic, now_iso
from .protocol import RELL2_DEFINITION, predict, share_objective, evaluate_split
from .control import Control, StopRequested

# The depthwise conv's weight gradient has its own strides; DDP copies it into its bucket anyway.
warnings.filterwarnings("ignore", message="Grad strides do not match bucket view strides")

# The workbench's registry (main/model/registry.ts), kind -> the PyTorch reference that builds it.
MODELS = {"lino": lino_ref.from_config, "fno": fno_ref.from_config, "deeponet": deeponet_ref.from_config}
# What the epoch loop reads of config.json; the workbench's export writes each of them.
FIELDS = ("epochs", "batchSize", "seed", "clipNorm", "optimizer.lr", "optimizer.weightDecay", "optimizer.beta1",
          "optimizer.beta2", "optimizer.eps", "schedule.stepSize", "schedule.gamma")


def settings(cfg, path):
    """The run config as the workbench exported it (main/train/config.ts TrainConfig, defaults filled in)."""
    for f in FIELDS:
        v = cfg
        for k in f.split("."):
            v = v.get(k) if isinstance(v, dict) else None
        if v is None:
            raise SystemExit(f"{path}: field '{f}' is missing, expected the workbench's exported config "
                             "(Run on a cluster... / lino export-run write every default)")
    return cfg


def build_model(spec, path):
    """The model of model.json ({kind, ...its builder config}) through its kind's reference."""
    kind = spec.get("kind")
    if kind not in MODELS:
        raise SystemExit(f"{path}: field 'kind' is {kind!r}, expected one of {', '.join(sorted(MODELS))}")
    return MODELS[kind](spec)


def setup(want=None):
    """(rank, world, device, backend label): a process group when torchrun started us.
    want: 'cpu', 'cuda' or 'mps' (--device); None: CUDA when there is one, else the CPU."""
    if want == "cuda" and not torch.cuda.is_available():
        raise SystemExit("--device cuda: this torch sees no CUDA GPU")
    if want == "mps" and not (getattr(torch.backends, "mps", None) and torch.backends.mps.is_available()):
        raise SystemExit("--device mps: this torch has no Apple MPS device")
    use_cuda = torch.cuda.is_available() if want is None else want == "cuda"
    if "RANK" not in os.environ:  # plain `python -m scaleout.train`: no process group
        dev = torch.device(want or ("cuda" if use_cuda else "cpu"))
        return 0, 1, dev, f"torch-{dev.type}"
    if want == "mps":
        raise SystemExit("--device mps: one process only (torchrun with several processes needs cuda or cpu)")
    backend = "nccl" if use_cuda else "gloo"
    # Only rank 0 evaluates while the others wait in a collective: a long validation on a large
    # set must not trip the process group's watchdog (10 to 30 minutes by default).
    dist.init_process_group(backend, timeout=datetime.timedelta(hours=4))
    world = dist.get_world_size()
    dev = torch.device("cpu")
    if backend == "nccl":
        dev = torch.device("cuda", int(os.environ.get("LOCAL_RANK", "0")))
        torch.cuda.set_device(dev)
    return dist.get_rank(), world, dev, f"torch-ddp-{backend}x{world}"


def to_numpy(t):
    """float32 numpy; a complex tensor (FNO's spectral weights) as real/imag pairs in a trailing axis, as the workbench stores it."""
    t = t.detach().cpu()
    return (torch.view_as_real(t) if t.is_complex() else t).numpy().astype(np.float32)


def from_numpy(a, like):
    t = torch.from_numpy(np.ascontiguousarray(a))
    return (torch.view_as_complex(t) if like.is_complex() else t.reshape(like.shape)).to(like.device)


def restore(run, net, opt, sched, names, s, log):
    """checkpoints/last (written here or by the workbench) into model, AdamW, StepLR; returns trainer state."""
    ck = run.load_checkpoint("last")
    if ck is None:
        return {"epoch": 0, "globalStep": 0, "rng": Rng(s["seed"]), "best": None, "records": 0}
    state, weights, m, v = ck
    own = net.state_dict()
    net.load_state_dict({k: from_numpy(a, own[k]) for k, a in weights.items()}, strict=True)
    params = dict(net.named_parameters())
    for k in names:
        p = params[k]
        opt.state[p] = {"step": torch.tensor(float(state["optimizer"]["step"])),
                        "exp_avg": from_numpy(m[k], p), "exp_avg_sq": from_numpy(v[k], p)}
    sched.last_epoch = state["scheduler"]["lastEpoch"]
    for g in opt.param_groups:
        g["lr"] = state["scheduler"]["lr"]
    sched._last_lr = [state["scheduler"]["lr"]]
    log(f"resuming from checkpoints/last: epoch {state['epoch']}, step {state['globalStep']} (saved on {state.get('backend')})")
    return {"epoch": state["epoch"], "globalStep": state["globalStep"], "rng": Rng(state["rng"]), "best": state["best"],
            "records": state["metricsRecords"]}


def train_step(st, rows):
    """One optimizer step on the global batch `rows`; returns (loss, relL2, gradNorm) of the whole batch."""
    ddp, opt, data, rank, world, s, device = st.ddp, st.opt, st.data, st.rank, st.world, st.s, st.device
    x_all, y_all = data["splits"]["train"]
    B = len(rows)
    share = np.array_split(np.asarray(rows), world)[rank]
    # A rank without rows still runs forward/backward (DDP's all-reduce needs every rank) on a
    # stand-in row whose loss is multiplied by zero.
    idx = share if len(share) else np.asarray(rows[:1])
    # microBatch (a number; 'auto' is the whole share): the share in pieces whose gradients add up
    # (share_objective's shares sum to the batch's objective), so a batch that does not fit in GPU
    # memory trains in pieces to the same numbers, up to float rounding, as the workbench's trainer does
    mb = s.get("microBatch")
    mb = mb if isinstance(mb, int) and not isinstance(mb, bool) and mb > 0 else len(idx)
    pieces = [idx[i:i + mb] for i in range(0, len(idx), mb)]
    opt.zero_grad(set_to_none=True)
    totals = None
    for k, piece in enumerate(pieces):
        x = torch.from_numpy(x_all[piece]).to(device)
        y = torch.from_numpy(y_all[piece]).to(device)
        # DDP all-reduces once, at the last piece's backward
        quiet = ddp.no_sync() if k < len(pieces) - 1 and hasattr(ddp, "no_sync") else contextlib.nullcontext()
        with quiet:
            loss, rel_sum = share_objective(predict(ddp, x, data["ar"]), y, B, data["ar"])
            if not len(share):
                loss, rel_sum = loss * 0.0, rel_sum * 0.0
            (loss * world).backward()  # DDP averages over ranks: times world, the sum of the shares
        part = torch.stack([loss.detach(), rel_sum.detach()]).double()  # on the device: NCCL reduces CUDA tensors only
        totals = part if totals is None else totals + part
    if dist.is_initialized():
        dist.all_reduce(totals)
    params = [p for p in ddp.parameters() if p.grad is not None]
    if s["clipNorm"] > 0:
        norm = torch.nn.utils.clip_grad_norm_(params, s["clipNorm"])
    else:
        norm = torch.norm(torch.stack([p.grad.norm() for p in params]))
    # the objective sums relL2 over the rollout steps; the reported relL2 is the mean over steps
    loss_v, rel_v, norm_v = float(totals[0]), float(totals[1]) / (B * (data["ar"]["tOut"] if data["ar"] else 1)), float(norm)
    if not np.isfinite(loss_v) or not np.isfinite(norm_v):
        raise FloatingPointError(f"non-finite {'loss' if not np.isfinite(loss_v) else 'gradient'} ({loss_v if not np.isfinite(loss_v) else norm_v})")
    opt.step()
    return loss_v, rel_v, norm_v


def main(argv=None):
    ap = argparse.ArgumentParser(prog="scaleout.train", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    # not --run: newer torchrun reads it (after -m MODULE) as an abbreviation of its own --run-path
    ap.add_argument("--run-dir", dest="run", required=True, help="run folder (created from --config when it has no config.json)")
    ap.add_argument("--data", required=True, help="dataset exported by the workbench (prepared layout, .npy)")
    ap.add_argument("--config", help="the run's config.json, copied into --run-dir on first start")
    ap.add_argument("--model", default="model.json", help="the model as the workbench builds it (the export's model.json)")
    ap.add_argument("--max-epochs", type=int, help="stop after this many epochs in this call (the run stays resumable)")
    ap.add_argument("--threads", type=int, help="torch.set_num_threads per process")
    ap.add_argument("--device", choices=("cpu", "cuda", "mps"), help="default: CUDA when there is one, else the CPU")
    ap.add_argument("--control", choices=("stdin",), help="read pause/resume/stop lines on stdin, or in RUN/torch/control once a later engine adopts the run (the workbench drives the run)")
    a = ap.parse_args(argv)
    if a.threads:
        torch.set_num_threads(a.threads)
    control = Control()
    control.install_signals()
    rank, world, device, backend = setup(a.device)
    if a.control == "stdin" and rank == 0:
        control.read_stdin()
        control.watch_file(os.path.join(a.run, "torch", "control"))
    a.ctl = control
    run = RunFolder(a.run)
    if rank == 0 and not os.path.exists(run.config_path):
        if not a.config:
            raise SystemExit(f"{run.config_path}: missing; give --config CONFIG.json to start a new run there")
        os.makedirs(os.path.join(run.dir, "checkpoints"), exist_ok=True)
        with open(a.config) as f:
            write_json_atomic(run.config_path, json.load(f))
    if dist.is_initialized():
        dist.barrier()
    try:
        fit(run, a, rank, world, device, backend)
    finally:
        if dist.is_initialized():
            dist.destroy_process_group()


def log_fn(run, rank):
    def log(m):
        if rank == 0:
            run.log(m)
            print(m, file=sys.stderr, flush=True)
    return log


def fit(run, a, rank, world, device, backend):
    # --config (every default filled in) when given: the run's own config.json may omit defaults
    if a.config:
        try:
            with open(a.config) as f:
                cfg, cfg_path = json.load(f), a.config
        except (OSError, ValueError) as e:
            raise SystemExit(f"{a.config}: cannot read the run configuration ({e})")
    else:
        cfg, cfg_path = run.read_config(), run.config_path
    s = settings(cfg, cfg_path)
    data = load_export(a.data)
    log = log_fn(run, rank)
    torch.manual_seed(s["seed"])
    try:
        with open(a.model) as f:
            spec = json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit(f"{a.model}: {e} (the export's model.json: the model as the workbench builds it)")
    net = build_model(spec, a.model).to(device)
    names = [k for k, _ in net.named_parameters()]
    ddp = DDP(net, device_ids=[device.index] if device.type == "cuda" else None) if dist.is_initialized() else net
    o = s["optimizer"]
    opt = torch.optim.AdamW(net.parameters(), lr=o["lr"], betas=(o["beta1"], o["beta2"]), eps=o["eps"], weight_decay=o["weightDecay"])
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=s["schedule"]["stepSize"], gamma=s["schedule"]["gamma"])
    ts = restore(run, net, opt, sched, names, s, log)  # every rank loads the same checkpoint
    if rank == 0:
        run.truncate_metrics(ts["records"])
        run.write_status("running", epoch=ts["epoch"], step=ts["globalStep"], backend=backend)
    log(f"training on {backend} ({device}): {sum(p.numel() for p in net.parameters())} parameters, batch {s['batchSize']} over {world} process{'es' if world > 1 else ''}")
    n = data["splits"]["train"][0].shape[0]
    # Everything an epoch reads and advances, in one object (ts: the trainer state a checkpoint keeps).
    st = types.SimpleNamespace(run=run, ddp=ddp, net=net, opt=opt, sched=sched, names=names, s=s, data=data, ts=ts,
                               rank=rank, world=world, device=device, backend=backend, n=n, ctl=a.ctl)
    done_this_call = 0
    try:
        while ts["epoch"] < s["epochs"]:
            if a.max_epochs is not None and done_this_call >= a.max_epochs:
                if rank == 0:
                    run.write_status("stopped", reason="epoch limit of this call", epoch=ts["epoch"], step=ts["globalStep"], backend=backend)
                return
            rec = run_epoch(st)
            done_this_call += 1
            if rank == 0:
                save(st, rec)
            if dist.is_initialized():
                dist.barrier()
        if rank == 0:
            run.write_status("done", epoch=ts["epoch"], step=ts["globalStep"], backend=backend)
            log(f"done: {ts['epoch']} epochs, best validation relL2 {ts['best']['valRelL2']} at epoch {ts['best']['epoch']}")
    except StopRequested:
        if rank == 0:
            run.write_status("stopped", reason="stopped by the user", epoch=ts["epoch"], step=ts["globalStep"], backend=backend)
            log(f"stopped by the user at epoch {ts['epoch'] + 1}, step {ts['globalStep']}; checkpoints/last holds epoch {ts['epoch']}")
    except FloatingPointError as e:
        if rank == 0:
            run.write_status("failed", reason=f"{e} at epoch {ts['epoch'] + 1}, step {ts['globalStep'] + 1}", epoch=ts["epoch"], step=ts["globalStep"], backend=backend)
        raise


def run_epoch(st):
    """One epoch: the training steps, then (rank 0) validation and the epoch record; advances st.ts."""
    run, ddp, net, opt, s, data, ts, rank, n = st.run, st.ddp, st.net, st.opt, st.s, st.data, st.ts, st.rank, st.n
    device, backend, sched = st.device, st.backend, st.sched
    t0 = time.perf_counter()
    perm = ts["rng"].permutation(n)  # every rank draws the same permutation
    lr = opt.param_groups[0]["lr"]
    loss_sum = rel_sum = 0.0
    steps = []
    ddp.train()
    for i in range(0, n, s["batchSize"]):
        between_steps(st)
        ts0 = time.perf_counter()
        loss, rel, norm = train_step(st, perm[i:i + s["batchSize"]])
        ts["globalStep"] += 1
        rec = {"type": "step", "epoch": ts["epoch"] + 1, "step": ts["globalStep"], "loss": loss, "relL2": rel, "lr": lr,
               "gradNorm": norm, "stepMs": (time.perf_counter() - ts0) * 1e3}
        loss_sum, rel_sum = loss_sum + loss, rel_sum + rel
        steps.append(rec)
        if rank == 0:
            run.append_metrics([rec])
            ts["records"] += 1
    train_s = time.perf_counter() - t0
    ts["epoch"] += 1
    rec = None
    if rank == 0:
        net.eval()
        val, blocks = evaluate_split(net, *data["splits"]["val"], data["ystats"], data["ar"], s["batchSize"], device, True)
        test = evaluate_split(net, *data["splits"]["test"], data["ystats"], data["ar"], s["batchSize"], device)[0] if "test" in data["splits"] else None
        best = ts["best"]
        is_best = best is None or val["relL2"] < best["valRelL2"]
        if is_best:
            ts["best"] = best = {"epoch": ts["epoch"], "valRelL2": val["relL2"], **({"testRelL2": test["relL2"], "testRelL2Decoded": test["relL2Decoded"]} if test else {})}
        epoch_s = time.perf_counter() - t0
        rec = {"type": "epoch", "epoch": ts["epoch"], "lr": lr, "train": {"loss": loss_sum / len(steps), "relL2": rel_sum / len(steps)},
               "relL2Definition": RELL2_DEFINITION["autoregressive" if data["ar"] else "operator"],
               "val": val, **({"test": test} if test else {}), "blocks": blocks, "best": is_best, "bestEpoch": best["epoch"],
               "bestValRelL2": best["valRelL2"], **({"bestTestRelL2": best["testRelL2"], "bestTestRelL2Decoded": best["testRelL2Decoded"]} if "testRelL2" in best else {}),
               "samplesPerSec": n / max(1e-9, train_s), "epochSeconds": epoch_s, "etaSeconds": max(0, s["epochs"] - ts["epoch"]) * epoch_s,
               "peakRssBytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
               "tfBytes": torch.cuda.max_memory_allocated() if device.type == "cuda" else 0, "backend": backend}
        run.append_metrics([rec], sync=True)
        ts["records"] += 1
    if dist.is_initialized():  # every rank keeps the same best record (only rank 0 evaluates)
        box = [ts["best"]]
        dist.broadcast_object_list(box, src=0)
        ts["best"] = box[0]
    sched.step()
    return rec


def between_steps(st):
    """A stop or a pause asked (signal, or the workbench on stdin); every rank agrees under torchrun."""
    ts, run, backend = st.ts, st.run, st.backend
    if dist.is_initialized():
        flag = torch.tensor([1.0 if st.ctl.stop.is_set() else 0.0], device=st.device if st.device.type == "cuda" else "cpu")
        dist.all_reduce(flag)
        if float(flag[0]) > 0:
            st.ctl.stop.set()
    st.ctl.between_steps(
        on_pause=lambda: st.rank == 0 and run.write_status("paused", epoch=ts["epoch"], step=ts["globalStep"], backend=backend),
        on_resume=lambda: st.rank == 0 and run.write_status("running", epoch=ts["epoch"], step=ts["globalStep"], backend=backend))


def save(st, rec):
    """checkpoints/best (when best) then last, as the workbench's runner does, and status.json."""
    run, net, opt, sched, names, s, data, ts, backend = st.run, st.net, st.opt, st.sched, st.names, st.s, st.data, st.ts, st.backend
    params = dict(net.named_parameters())
    weights = {k: to_numpy(v) for k, v in net.state_dict().items()}
    m, v, step = {}, {}, 0
    for k in names:
        st = opt.state.get(params[k], {})
        m[k] = to_numpy(st["exp_avg"] if st else torch.zeros_like(params[k]))
        v[k] = to_numpy(st["exp_avg_sq"] if st else torch.zeros_like(params[k]))
        step = max(step, int(st["step"]) if st else 0)
    o = s["optimizer"]
    state = {"format": "lino-checkpoint", "version": 1, "epoch": ts["epoch"], "globalStep": ts["globalStep"],
             "optimizer": {"name": "adamw", "step": step, "lr": opt.param_groups[0]["lr"], "weightDecay": o["weightDecay"],
                           "beta1": o["beta1"], "beta2": o["beta2"], "eps": o["eps"]},
             "scheduler": {"name": "steplr", "lastEpoch": sched.last_epoch, "lr": opt.param_groups[0]["lr"],
                           "stepSize": s["schedule"]["stepSize"], "gamma": s["schedule"]["gamma"]},
             "rng": ts["rng"].get_state(), "normalizer": data["manifest"]["normalization"], "best": ts["best"],
             "backend": backend, "savedAt": now_iso(), "metricsRecords": ts["records"]}
    if rec["best"]:
        run.save_checkpoint("best", weights, m, v, state)
    run.save_checkpoint("last", weights, m, v, state)
    run.write_status("running", epoch=ts["epoch"], step=ts["globalStep"], backend=backend)


if __name__ == "__main__":
    main()
