"""PyTorch reference of the DeepONet baseline (unstacked DeepONet, Lu et al. 2021, Nat. Mach. Intell.),
as the paper's Burgers baseline: a branch net takes the input function sampled on the grid (every
point, every input channel, flattened channels-last), a trunk net takes the normalized coordinate of
each output point (x in [0, 1] in 1D; (x, y) on 2D grids, the 2D extension), and

    y_c(x) = sum_k b_{c,k}(u) t_{c,k}(x) + bias_c.

Branch and trunk are each `layers` fully connected layers (width `width`, the last one `basis` * C
wide), with the activation after every hidden layer. The activation is ReLU: DeepXDE, the DeepONet
authors' library, builds its operator examples with "relu", and applies it to the trunk's output too
(the branch's output stays linear), which this reference follows.

Several output channels: each channel c has its own `basis` functions (DeepXDE's "split both"
strategy): branch and trunk output basis * C values, read as [C, basis]; one bias per channel.
With one output channel this is the plain unstacked DeepONet.

Resolution is fixed: the branch's first layer takes prod(grid) * in_channels values.

Coordinates: per axis linspace(0, 1, n), "ij" ordering (the workbench's coordinate channels).
state_dict: branch.layers.<i>.weight/bias, trunk.layers.<i>.weight/bias, bias.
"""
import math

import torch
import torch.nn as nn


class MLP(nn.Module):
    """Linear layers with ReLU after all but the last."""

    def __init__(self, sizes):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])])

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = torch.relu(x)
        return x


def grid_coords(grid, dtype=torch.float32):
    """[prod(grid), len(grid)]: per axis linspace(0, 1, n) ("ij" ordering, C order)."""
    axes = [torch.linspace(0, 1, n, dtype=dtype) if n > 1 else torch.zeros(1, dtype=dtype) for n in grid]
    mesh = torch.meshgrid(*axes, indexing="ij")
    return torch.stack([m.reshape(-1) for m in mesh], dim=-1)


class DeepONet(nn.Module):
    """Channels-last in and out ([B, N, C] or [B, H, W, C]), like the workbench."""

    def __init__(self, dims, in_channels, out_channels, grid, width=128, layers=8, basis=128):
        super().__init__()
        assert len(grid) == dims
        self.grid, self.out_channels, self.basis = list(grid), out_channels, basis
        points = math.prod(grid)
        hidden = [width] * (layers - 1)
        self.branch = MLP([points * in_channels] + hidden + [basis * out_channels])
        self.trunk = MLP([dims] + hidden + [basis * out_channels])
        self.bias = nn.Parameter(torch.zeros(out_channels))

    def forward(self, x):
        B, C, P = x.shape[0], self.out_channels, self.basis
        b = self.branch(x.reshape(B, -1)).reshape(B, C, P)
        t = torch.relu(self.trunk(grid_coords(self.grid, x.dtype))).reshape(-1, C, P)
        y = torch.einsum("bcp,ncp->bnc", b, t) + self.bias
        return y.reshape([B] + self.grid + [C])


def from_config(cfg):
    return DeepONet(cfg["dims"], cfg["inChannels"], cfg["outChannels"], cfg["grid"], cfg.get("width", 128),
                    cfg.get("layers", 8), cfg.get("basis", 128))


def state_dict_numpy(model):
    return {k: v.detach().float().numpy().copy() for k, v in model.state_dict().items()}
