"""PyTorch reference of the FNO baseline (Li et al. 2021), following the neuraloperator/FNO original
(fourier_1d.py, fourier_2d.py): fc0 lifting; 4 Fourier layers, each SpectralConv (conv<i>) on the
lowest `modes` frequencies plus a 1x1 convolution skip (w<i>), GELU after all but the last;
projection fc1 (width -> 128) -> GELU -> fc2. state_dict names are the original's.

Differences from the original, on purpose:
- the input channels are the data's (the workbench's pipeline appends the grid coordinates itself
  when asked), so fc0 is Linear(in_channels, width) and forward does not concatenate a grid;
- no zero padding in 2D (the original pads Darcy by 9 points): inputs are taken as periodic.

Complex weights (weights1, weights2: [in, out, modes(, modes)] complex) are held as real parameters,
real/imag pairs in a trailing axis of 2 (torch.view_as_real; forward reads them through
torch.view_as_complex), as safetensors stores them under the same name: the same maths (AdamW and
clipping act elementwise on the pairs, as on complex tensors), and DistributedDataParallel, whose
gloo backend cannot broadcast complex tensors, can train it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SpectralConv1d(nn.Module):
    def __init__(self, in_channels, out_channels, modes1):
        super().__init__()
        self.in_channels, self.out_channels, self.modes1 = in_channels, out_channels, modes1
        self.scale = 1 / (in_channels * out_channels)
        self.weights1 = nn.Parameter(torch.view_as_real(self.scale * torch.rand(in_channels, out_channels, modes1, dtype=torch.cfloat)))

    def forward(self, x):  # x [B, C, N]
        x_ft = torch.fft.rfft(x)
        out_ft = torch.zeros(x.shape[0], self.out_channels, x.size(-1) // 2 + 1, dtype=x_ft.dtype, device=x.device)
        out_ft[:, :, : self.modes1] = torch.einsum("bix,iox->box", x_ft[:, :, : self.modes1], torch.view_as_complex(self.weights1))
        return torch.fft.irfft(out_ft, n=x.size(-1))


class SpectralConv2d(nn.Module):
    def __init__(self, in_channels, out_channels, modes1, modes2):
        super().__init__()
        self.in_channels, self.out_channels, self.modes1, self.modes2 = in_channels, out_channels, modes1, modes2
        self.scale = 1 / (in_channels * out_channels)
        self.weights1 = nn.Parameter(torch.view_as_real(self.scale * torch.rand(in_channels, out_channels, modes1, modes2, dtype=torch.cfloat)))
        self.weights2 = nn.Parameter(torch.view_as_real(self.scale * torch.rand(in_channels, out_channels, modes1, modes2, dtype=torch.cfloat)))

    def forward(self, x):  # x [B, C, H, W]
        m1, m2 = self.modes1, self.modes2
        x_ft = torch.fft.rfft2(x)
        out_ft = torch.zeros(x.shape[0], self.out_channels, x.size(-2), x.size(-1) // 2 + 1, dtype=x_ft.dtype, device=x.device)
        out_ft[:, :, :m1, :m2] = torch.einsum("bixy,ioxy->boxy", x_ft[:, :, :m1, :m2], torch.view_as_complex(self.weights1))
        out_ft[:, :, -m1:, :m2] = torch.einsum("bixy,ioxy->boxy", x_ft[:, :, -m1:, :m2], torch.view_as_complex(self.weights2))
        return torch.fft.irfft2(out_ft, s=(x.size(-2), x.size(-1)))


class FNO(nn.Module):
    """dims 1 or 2; channels-last in and out ([B, N, C] or [B, H, W, C]), like the workbench."""

    def __init__(self, dims, in_channels, out_channels, width=32, modes=12, layers=4, projection=128):
        super().__init__()
        self.dims, self.layers = dims, layers
        self.fc0 = nn.Linear(in_channels, width)
        for i in range(layers):
            conv = SpectralConv1d(width, width, modes) if dims == 1 else SpectralConv2d(width, width, modes, modes)
            setattr(self, f"conv{i}", conv)
            setattr(self, f"w{i}", nn.Conv1d(width, width, 1) if dims == 1 else nn.Conv2d(width, width, 1))
        self.fc1 = nn.Linear(width, projection)
        self.fc2 = nn.Linear(projection, out_channels)

    def forward(self, x):
        x = self.fc0(x)
        x = x.permute(0, 2, 1) if self.dims == 1 else x.permute(0, 3, 1, 2)
        for i in range(self.layers):
            x = getattr(self, f"conv{i}")(x) + getattr(self, f"w{i}")(x)
            if i < self.layers - 1:
                x = F.gelu(x)
        x = x.permute(0, 2, 1) if self.dims == 1 else x.permute(0, 2, 3, 1)
        return self.fc2(F.gelu(self.fc1(x)))


def from_config(cfg):
    return FNO(cfg["dims"], cfg["inChannels"], cfg["outChannels"], cfg.get("width", 32), cfg.get("modes", 12),
               cfg.get("layers", 4), cfg.get("projection", 128))


def state_dict_real(model):
    """state_dict as float32 numpy arrays, complex tensors as real/imag pairs (trailing axis 2)."""
    out = {}
    for k, v in model.state_dict().items():
        v = v.detach()
        out[k] = (torch.view_as_real(v) if v.is_complex() else v).float().numpy().copy()
    return out
