"""Reference LiNO in PyTorch, written from docs/protocol.md ("The model, exactly") (module and
parameter names match the authors' release so state_dict keys are identical). Used by the parity
fixtures (tools/parity), the bench and the distributed trainer (scaleout.train)."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

COMPONENTS = ("reflection", "refraction", "scattering")


def grid_coords(shape, dtype=torch.float32, device=None):
    """Normalized grid coordinates: per axis linspace(0,1,n), 'ij' ordering, flattened row-major -> [N, d_x]."""
    axes = [torch.linspace(0.0, 1.0, n, dtype=dtype, device=device) for n in shape]
    mesh = torch.meshgrid(*axes, indexing="ij")
    return torch.stack([m.reshape(-1) for m in mesh], dim=-1)


def unit(v):
    return v / v.norm(dim=-1, keepdim=True).clamp_min(1e-6)


class Affine(nn.Module):
    """Lifting / projection wrapper so the keys read lifting.linear.weight."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.linear = nn.Linear(d_in, d_out)

    def forward(self, x):
        return self.linear(x)


class Reflection(nn.Module):
    def __init__(self, m):
        super().__init__()
        self.v_proj = nn.Linear(m, m)

    def forward(self, h):
        vhat = unit(self.v_proj(h))
        return h - 2.0 * (h * vhat).sum(-1, keepdim=True) * vhat


class Refraction(nn.Module):
    rho = 0.25

    def __init__(self, m):
        super().__init__()
        self.v_proj = nn.Linear(m, m)
        self.refractive_param = nn.Parameter(torch.zeros(()))

    def eta(self):
        return 1.0 + self.rho * torch.tanh(self.refractive_param)

    def forward(self, h):
        vhat = unit(self.v_proj(h))
        return h + (self.eta() - 1.0) * (h * vhat).sum(-1, keepdim=True) * vhat


class ScatteringFull(nn.Module):
    def __init__(self, m):
        super().__init__()
        self.d = m
        self.q_proj = nn.Linear(m, m, bias=False)
        self.k_proj = nn.Linear(m, m, bias=False)
        self.v_proj = nn.Linear(m, m, bias=False)
        self.log_sigma = nn.Parameter(torch.tensor(-2.0))
        self.log_tau = nn.Parameter(torch.tensor(0.0))

    def forward(self, h):
        b, grid, m = h.shape[0], h.shape[1:-1], h.shape[-1]
        hf = h.reshape(b, -1, m)
        p = grid_coords(grid, h.dtype, h.device)
        dist = ((p[:, None, :] - p[None, :, :]) ** 2).sum(-1)
        q, k, z = self.q_proj(hf), self.k_proj(hf), self.v_proj(hf)
        logits = q @ k.transpose(1, 2) / math.sqrt(self.d) - F.softplus(self.log_tau) * dist
        kern = torch.softmax(logits, dim=-1)
        y = kern @ z
        return (torch.exp(self.log_sigma) * (y - hf)).reshape(h.shape)


class ScatteringEfficient(nn.Module):
    def __init__(self, m, dims):
        super().__init__()
        self.d = m
        self.q_proj = nn.Linear(m, m, bias=False)
        self.k_proj = nn.Linear(m, m, bias=False)
        self.v_proj = nn.Linear(m, m, bias=False)
        self.coord_mlp = nn.Sequential(nn.Linear(dims, m), nn.GELU(), nn.Linear(m, m))
        conv = nn.Conv1d if dims == 1 else nn.Conv2d
        self.local_conv = conv(m, m, 3, padding=1, groups=m, bias=False)
        self.local_proj = nn.Linear(m, m, bias=False)
        self.local_gate = nn.Parameter(torch.tensor(-1.0))
        self.log_sigma = nn.Parameter(torch.tensor(-2.0))

    def forward(self, h):
        b, grid, m = h.shape[0], h.shape[1:-1], h.shape[-1]
        hf = h.reshape(b, -1, m)
        c = self.coord_mlp(grid_coords(grid, h.dtype, h.device))  # [N, d]
        z = self.v_proj(hf)
        qt = self.q_proj(hf) / math.sqrt(self.d) + c
        kt = self.k_proj(hf) / math.sqrt(self.d) + c
        phq, phk = F.elu(qt) + 1.0, F.elu(kt) + 1.0
        kv = phk.transpose(1, 2) @ z                     # [B, d, M]
        ksum = phk.sum(1)                                # [B, d]
        num = phq @ kv                                   # [B, N, M]
        den = (phq * ksum[:, None, :]).sum(-1, keepdim=True) + 1e-6
        y_glob = num / den
        hc = h.movedim(-1, 1)                            # channels first for the conv
        y_loc = self.local_proj(self.local_conv(hc).movedim(1, -1).reshape(b, -1, m))
        beta = torch.sigmoid(self.local_gate)
        y = (1 - beta) * y_glob + beta * y_loc
        return (torch.exp(self.log_sigma) * (y - hf)).reshape(h.shape)


class FFN(nn.Module):
    def __init__(self, m):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(m, 2 * m), nn.GELU(), nn.Linear(2 * m, m))

    def forward(self, x):
        return self.net(x)


class Block(nn.Module):
    def __init__(self, m, dims, scattering, components):
        super().__init__()
        self.components = [c for c in COMPONENTS if c in components]
        assert self.components, "at least one component"
        self.norm1 = nn.LayerNorm(m)
        if "reflection" in self.components:
            self.reflection = Reflection(m)
        if "refraction" in self.components:
            self.refraction = Refraction(m)
        if "scattering" in self.components:
            self.scattering = ScatteringFull(m) if scattering in ("full", "standard") else ScatteringEfficient(m, dims)
        self.gate = nn.Sequential(nn.Linear(m, 2 * m), nn.GELU(), nn.Linear(2 * m, len(self.components)))
        self.out_proj = nn.Linear(m, m)
        self.norm2 = nn.LayerNorm(m)
        self.ffn = FFN(m)

    def forward(self, x):
        h = self.norm1(x)
        branches = [getattr(self, c)(h) for c in self.components]
        hbar = h.reshape(h.shape[0], -1, h.shape[-1]).mean(1)
        alpha = torch.softmax(self.gate(hbar), dim=-1)
        self.last_alpha = alpha.detach()  # diagnostics for parity fixtures
        shape = [h.shape[0]] + [1] * (h.dim() - 1)
        mix = sum(alpha[:, k].reshape(shape) * b for k, b in enumerate(branches))
        x = x + self.out_proj(mix)
        return x + self.ffn(self.norm2(x))


class LiNO(nn.Module):
    def __init__(self, dims, in_channels, out_channels, width, depth, scattering="efficient", components=COMPONENTS):
        super().__init__()
        self.lifting = Affine(in_channels, width)
        self.blocks = nn.ModuleList([Block(width, dims, scattering, components) for _ in range(depth)])
        self.projection = Affine(width, out_channels)

    def forward(self, a):
        x = self.lifting(a)
        for blk in self.blocks:
            x = blk(x)
        return self.projection(x)


def from_config(cfg):
    scat = cfg.get("scattering", "efficient")
    return LiNO(cfg["dims"], cfg["inChannels"], cfg["outChannels"], cfg["width"], cfg["depth"],
                "full" if scat == "standard" else scat, cfg.get("components", list(COMPONENTS)))
