"""The workbench's objective and metrics (main/train/loss.ts, rollout.ts, trainer.ts evaluateSplit;
docs/protocol.md): loss = MSE + mean_b relL2_b on normalized fields, relL2_b =
||pred_b - y_b|| / (||y_b|| + 1e-12); Navier-Stokes rolls out T_out steps feeding predictions back,
relL2 summed over steps in the objective; the reported relL2 of a rollout is the mean over steps
(RELL2_DEFINITION, as the workbench's). Metrics in both conventions: normalized (the paper's) and
decoded (FNO's)."""
import torch
import torch.nn.functional as F

REL_EPS = 1e-12

# main/train/trainer.ts RELL2_DEFINITION, word for word (the epoch records carry it)
RELL2_DEFINITION = {
    "operator": "mean over samples of ||pred - y|| / ||y|| on normalized fields (the paper's validation relL2)",
    "autoregressive": "mean over samples and over the T_out rollout steps of the per-step relL2 on normalized fields (the release's \"one-step\", the paper's Navier-Stokes number)",
}


def rel_l2(pred, y):
    p, t = pred.reshape(pred.shape[0], -1), y.reshape(y.shape[0], -1)
    return (p - t).norm(dim=1) / (t.norm(dim=1) + REL_EPS)


def step_rel_l2(pred, y):
    """[T, B]: per rollout step (last axis) relL2 of each sample."""
    return torch.stack([rel_l2(pred[..., k], y[..., k]) for k in range(pred.shape[-1])])


def rollout(model, x0, t_in, t_out):
    """x0 = [history (t_in frames), coordinates]; each call predicts the next frame, fed back as is."""
    coords = x0[..., t_in:]
    x, preds = x0, []
    for k in range(t_out):
        p = model(x)
        preds.append(p)
        if k < t_out - 1:
            x = torch.cat([x[..., 1:t_in], p, coords], dim=-1)
    return torch.cat(preds, dim=-1)


def predict(model, x, ar):
    return rollout(model, x, ar["tIn"], ar["tOut"]) if ar else model(x)


def share_objective(pred, y, batch_size, ar):
    """A share of b samples' part of the objective of a batch of `batch_size` (shares add up to it):
    MSE_share * b/B + sum(relL2_share)/B, as microObjective/rolloutMicroObjective. Returns (loss, relSum)."""
    b = pred.shape[0]
    rel_sum = step_rel_l2(pred, y).sum() if ar else rel_l2(pred, y).sum()
    return F.mse_loss(pred, y) * (b / batch_size) + rel_sum / batch_size, rel_sum


def decode(t, s):
    return t * (s["std"] + s["eps"]) + s["mean"]


def _mean_std(v):
    v = torch.as_tensor(v, dtype=torch.float64)
    m = v.mean() if len(v) else torch.tensor(0.0)
    return float(m), float(((v - m) ** 2).mean().sqrt()) if len(v) else 0.0


def block_scalars(blk):
    """beta (efficient scattering), eta (refraction), sigma, tau (full scattering), as block.ts reports."""
    out = {}
    if hasattr(blk, "refraction"):
        out["eta"] = float(blk.refraction.eta())
    sc = getattr(blk, "scattering", None)
    if sc is not None:
        if hasattr(sc, "local_gate"):
            out["beta"] = float(torch.sigmoid(sc.local_gate))
        out["sigma"] = float(torch.exp(sc.log_sigma))
        if hasattr(sc, "log_tau"):
            out["tau"] = float(F.softplus(sc.log_tau))
    return out


@torch.no_grad()
def evaluate_split(model, x_all, y_all, ystats, ar, batch, device, with_blocks=False):
    """SplitMetrics (and BlockStats with with_blocks) of a split, as Trainer.evaluateSplit."""
    n = x_all.shape[0]
    mse_sum = rel_sum = rel_dec_sum = step_norm_sum = whole_sum = whole_dec_sum = 0.0
    t_out = ar["tOut"] if ar else 0
    step_vals = [[] for _ in range(t_out)]
    blocks_of = getattr(model, "blocks", [])  # LiNO's gates; FNO and DeepONet have none
    alpha_rows = [[] for _ in blocks_of]
    for i in range(0, n, batch):
        x = torch.from_numpy(x_all[i:i + batch].copy()).to(device)
        y = torch.from_numpy(y_all[i:i + batch].copy()).to(device)
        if ar:
            coords, xx, preds = x[..., ar["tIn"]:], x, []
            for k in range(t_out):
                p = model(xx)
                preds.append(p)
                for b, blk in enumerate(blocks_of):
                    alpha_rows[b].extend(blk.last_alpha.cpu().tolist())
                if k < t_out - 1:
                    xx = torch.cat([xx[..., 1:ar["tIn"]], p, coords], dim=-1)
            pred = torch.cat(preds, dim=-1)
        else:
            pred = model(x)
            for b, blk in enumerate(blocks_of):
                alpha_rows[b].extend(blk.last_alpha.cpu().tolist())
        per = y[0].numel()
        mse_sum += float(((pred - y) ** 2).sum()) / per
        whole = float(rel_l2(pred, y).sum())
        whole_dec = float(rel_l2(decode(pred, ystats), decode(y, ystats)).sum())
        if ar:
            # relL2 of a rollout: per sample the mean over the steps (the release's "one-step", as
            # the workbench's RELL2_DEFINITION); the whole-rollout field relL2 is reported apart
            steps_dec = step_rel_l2(decode(pred, ystats), decode(y, ystats))
            steps_norm = step_rel_l2(pred, y)
            for k, r in enumerate(steps_dec):
                step_vals[k].extend(r.cpu().tolist())
            step_norm_sum += float(steps_norm.sum())
            rel_sum += float(steps_norm.mean(dim=0).sum())
            rel_dec_sum += float(steps_dec.mean(dim=0).sum())
            whole_sum += whole
            whole_dec_sum += whole_dec
        else:
            rel_sum += whole
            rel_dec_sum += whole_dec
    m = {"mse": mse_sum / n, "relL2": rel_sum / n, "relL2Decoded": rel_dec_sum / n}
    if ar:
        ms = [_mean_std(v) for v in step_vals]
        m["steps"] = {"mean": [a for a, _ in ms], "std": [b for _, b in ms]}
        m["stepMeanRelL2"] = step_norm_sum / (n * t_out)
        m["rolloutRelL2"] = whole_sum / n
        m["rolloutRelL2Decoded"] = whole_dec_sum / n
    blocks = []
    if with_blocks:
        for b, blk in enumerate(blocks_of):
            cols = list(zip(*alpha_rows[b])) if alpha_rows[b] else []
            stats = [_mean_std(c) for c in cols]
            blocks.append({"components": list(blk.components), "alphaMean": [a for a, _ in stats],
                           "alphaStd": [s for _, s in stats], "scalars": block_scalars(blk)})
    return m, blocks
