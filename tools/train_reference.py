"""Reference numbers for the training engine's optimizer pieces, computed by PyTorch.

Writes test/fixtures/train/optim.json: AdamW (decoupled weight decay) steps with gradient
clipping at global norm 1.0 and StepLR stepped per epoch, on a few small parameters, with the
gradients recorded so the TypeScript test replays them without torch. Also the paper schedule
StepLR(5, 0.96) over 500 epochs.

Run with Debian's python3 (torch 1.13, numpy):  /usr/bin/python3 tools/train_reference.py
"""
import json
import os
import torch

torch.manual_seed(0)
torch.set_default_dtype(torch.float32)


def t2l(t):
    return t.detach().reshape(-1).tolist()


def scenario(lr, wd, max_norm, step_size, gamma, epochs, steps_per_epoch, grad_scale):
    g = torch.Generator().manual_seed(1)
    params = {
        "a.weight": torch.randn(3, 2, generator=g).requires_grad_(),
        "a.bias": torch.randn(4, generator=g).requires_grad_(),
        "s": torch.tensor(0.3).requires_grad_(),
    }
    init = {k: t2l(v) for k, v in params.items()}
    shapes = {k: list(v.shape) for k, v in params.items()}
    opt = torch.optim.AdamW(list(params.values()), lr=lr, weight_decay=wd, betas=(0.9, 0.999), eps=1e-8)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=step_size, gamma=gamma)
    steps = []
    for epoch in range(epochs):
        for s in range(steps_per_epoch):
            opt.zero_grad()
            w, b, sc = params["a.weight"], params["a.bias"], params["s"]
            loss = grad_scale * ((w ** 2).sum() * (1 + s) + torch.sin(3 * b).sum() + (sc - 1.5) ** 2 * 4 + (w.sum() * sc) ** 2)
            loss.backward()
            grads = {k: t2l(v.grad) for k, v in params.items()}
            lr_used = opt.param_groups[0]["lr"]
            norm = torch.nn.utils.clip_grad_norm_(list(params.values()), max_norm)
            opt.step()
            steps.append({
                "epoch": epoch, "lr": lr_used, "grads": grads, "normBeforeClip": float(norm),
                "params": {k: t2l(v) for k, v in params.items()},
            })
        sched.step()
    return {
        "lr": lr, "weightDecay": wd, "maxNorm": max_norm, "stepSize": step_size, "gamma": gamma,
        "shapes": shapes, "init": init, "steps": steps,
    }


def main():
    out = {
        "torch": torch.__version__,
        # large gradients: clipping active at every step
        "clipped": scenario(lr=0.05, wd=0.01, max_norm=1.0, step_size=2, gamma=0.5, epochs=4, steps_per_epoch=3, grad_scale=5.0),
        # small gradients: clipping inactive, paper defaults for the optimizer
        "unclipped": scenario(lr=1e-3, wd=1e-5, max_norm=1.0, step_size=2, gamma=0.96, epochs=3, steps_per_epoch=2, grad_scale=0.01),
    }
    p = torch.zeros(1, requires_grad=True)
    opt = torch.optim.AdamW([p], lr=1e-3)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=5, gamma=0.96)
    lrs = []
    for _ in range(500):
        lrs.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    out["paperStepLR"] = {"lr": 1e-3, "stepSize": 5, "gamma": 0.96, "lrs": lrs}
    here = os.path.dirname(os.path.abspath(__file__))
    dst = os.path.join(here, "..", "test", "fixtures", "train", "optim.json")
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(dst, "w") as f:
        json.dump(out, f)
    print("wrote", os.path.relpath(dst))


if __name__ == "__main__":
    main()
