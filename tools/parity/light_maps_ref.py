"""Light maps on the reference model, written from the issue's definitions with the
reference modules (scaleout/model.py): per block, reflection/refraction activity
<h, vhat>^2/||h||^2, branch contributions (alpha_r 2|<h,vhat>|, alpha_t |eta-1| |<h,vhat>|,
alpha_s ||S(h)||), the dominant branch, the latent norm ||x||, the gate alpha and, for a query
point, the global scattering kernel row (full: softmax row with the positional bias; efficient:
(1 - beta) phi(q_i).phi(k_j) / (phi(q_i).sum_l phi(k_l) + 1e-6))."""
import math
import torch
import torch.nn.functional as F

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))  # the repository root: the scaleout package
from scaleout.model import grid_coords, unit, ScatteringFull


def _kernel_row(s, h, q):
    """Global kernel row of flat query index q, [B, N]."""
    b, grid, m = h.shape[0], h.shape[1:-1], h.shape[-1]
    hf = h.reshape(b, -1, m)
    p = grid_coords(grid, h.dtype, h.device)
    if isinstance(s, ScatteringFull):
        dist = ((p[q][None, :] - p) ** 2).sum(-1)                          # [N]
        logits = (s.q_proj(hf)[:, q, :, None].transpose(1, 2) @ s.k_proj(hf).transpose(1, 2)).squeeze(1)
        logits = logits / math.sqrt(s.d) - F.softplus(s.log_tau) * dist
        return torch.softmax(logits, dim=-1)
    c = s.coord_mlp(p)
    phq = F.elu(s.q_proj(hf) / math.sqrt(s.d) + c) + 1.0
    phk = F.elu(s.k_proj(hf) / math.sqrt(s.d) + c) + 1.0
    qi = phq[:, q, :]                                                     # [B, d]
    raw = (phk * qi[:, None, :]).sum(-1)                                  # [B, N]
    den = (qi * phk.sum(1)).sum(-1, keepdim=True) + 1e-6
    return (1 - torch.sigmoid(s.local_gate)) * raw / den


def light_maps(model, a, query=None):
    """a: [B, ...grid, C_in]; query: flat point index or None. Returns {name: tensor}, names as the
    CLI's files (block{b}_...), each [B, ...grid], plus gates [depth, B, K]."""
    out = {}
    gates = []
    with torch.no_grad():
        x = model.lifting(a)
        for bi, blk in enumerate(model.blocks):
            h = blk.norm1(x)
            hh = (h * h).sum(-1)
            hbar = h.reshape(h.shape[0], -1, h.shape[-1]).mean(1)
            alpha = torch.softmax(blk.gate(hbar), dim=-1)
            gates.append(alpha)
            shape = [h.shape[0]] + [1] * (h.dim() - 2)
            contrib = []
            for k, comp in enumerate(blk.components):
                ak = alpha[:, k].reshape(shape)
                mod = getattr(blk, comp)
                if comp == "scattering":
                    c = ak * mod(h).norm(dim=-1)
                    if query is not None:
                        out[f"block{bi}_scattering_kernel"] = _kernel_row(mod, h, query).reshape(h.shape[:-1])
                else:
                    dot = (h * unit(mod.v_proj(h))).sum(-1)
                    out[f"block{bi}_{comp}_activity"] = dot * dot / hh
                    scale = 2.0 if comp == "reflection" else (mod.eta() - 1.0).abs()
                    c = ak * scale * dot.abs()
                out[f"block{bi}_contribution_{comp}"] = c
                contrib.append(c)
            out[f"block{bi}_dominant"] = torch.stack(contrib, -1).argmax(-1).to(h.dtype)
            out[f"block{bi}_latent_norm"] = x.norm(dim=-1)
            x = blk(x)
    out["gates"] = torch.stack(gates)
    return out
