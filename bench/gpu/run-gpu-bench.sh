#!/usr/bin/env bash
# GPU bench: the engine's training step on webgpu (Vulkan via dawn.node) against the
# PyTorch references (scaleout/model.py, fno_ref.py, deeponet_ref.py) on CUDA, on a machine with PyTorch but no Node.
# Self-contained: run it from the folder scripts/build-gpu-bench.mjs made (README.md there).
#   ./run-gpu-bench.sh [--debs DIR] [--smoke] [--software] [--torch-device cuda|cpu]
#   --debs DIR      .debs to unpack with dpkg -x (libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
#   --smoke         tiny sizes, to check the whole pipeline quickly
#   --software      accept a software adapter (SwiftShader): for the smoke test on a machine without a GPU
#   --torch-device  PyTorch's device (default cuda; cpu for the smoke test without a GPU)
# Environment: PYTHON (default python3), VK_ICD_FILENAMES (default NVIDIA's ICD under /usr/local/nvidia).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
PYTHON="${PYTHON:-python3}"
# parity/bench_step.py imports the reference models from the scaleout package carried beside it
export PYTHONPATH="$HERE${PYTHONPATH:+:$PYTHONPATH}"
DEBS="" SMOKE="" SOFTWARE="" TORCH_DEVICE="cuda"
while [ $# -gt 0 ]; do
  case "$1" in
    --debs) DEBS="$2"; shift 2 ;;
    --smoke) SMOKE="--smoke"; shift ;;
    --software) SOFTWARE="--software"; shift ;;
    --torch-device) TORCH_DEVICE="$2"; shift 2 ;;
    *) echo "run-gpu-bench.sh: unknown argument '$1' (see the header of this script)" >&2; exit 2 ;;
  esac
done
WORK="$(mktemp -d "${TMPDIR:-/tmp}/lino-gpu-bench.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
T0=$(date +%s)

unxz_to() { # src dst: xz if present, else Python's lzma (always there with PyTorch)
  if command -v xz >/dev/null 2>&1; then xz -dc "$1" > "$2"; else "$PYTHON" -c 'import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],"wb"))' "$1" "$2"; fi
}

# Node, the webgpu package (resolved by the bundle as node_modules/webgpu next to it), the bundle
unxz_to "$HERE/node.xz" "$WORK/node" && chmod +x "$WORK/node"
mkdir -p "$WORK/node_modules/webgpu/dist/linux-x64"
cp "$HERE/webgpu/index.js" "$HERE/webgpu/package.json" "$WORK/node_modules/webgpu/"
unxz_to "$HERE/webgpu/dist/linux-x64/dawn.node.xz" "$WORK/node_modules/webgpu/dist/linux-x64/dawn.node"
cp "$HERE/bench.mjs" "$WORK/"

# Vulkan loader and GL dispatch libraries (NVIDIA's ICD loads libGLX_nvidia through libglvnd)
if [ -n "$DEBS" ]; then
  mkdir -p "$WORK/gl"
  for deb in "$DEBS"/*.deb; do
    if command -v dpkg >/dev/null 2>&1; then dpkg -x "$deb" "$WORK/gl"
    else (cd "$WORK/gl" && ar x "$deb" && tar xf data.tar.* && rm -f data.tar.* control.tar.* debian-binary); fi
  done
  for d in usr/lib/x86_64-linux-gnu lib/x86_64-linux-gnu; do [ -d "$WORK/gl/$d" ] && LD_LIBRARY_PATH="$WORK/gl/$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; done
  export LD_LIBRARY_PATH
fi
# NVIDIA's ICD names libGLX_nvidia.so.0 without a path: the driver's libraries must be findable
for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do
  case ":${LD_LIBRARY_PATH:-}:" in *":$d:"*) ;; *) [ -d "$d" ] && export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d" ;; esac
done
if [ -z "${VK_ICD_FILENAMES:-}" ]; then
  if [ -n "$SOFTWARE" ] && [ -f /usr/lib/chromium/vk_swiftshader_icd.json ]; then export VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json
  elif [ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]; then export VK_ICD_FILENAMES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; fi
fi
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$WORK/xdg}"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
echo "VK_ICD_FILENAMES=${VK_ICD_FILENAMES:-<unset>}  node $("$WORK/node" --version)  $("$PYTHON" -c 'import torch; print("torch", torch.__version__, "cuda", torch.cuda.is_available())')"

"$WORK/node" "$WORK/bench.mjs" --print-cases $SMOKE > "$WORK/cases.json"
echo "webgpu: $(date +%T)"
# SwiftShader compiles each pipeline on the CPU: the smoke test gets longer
timeout "$([ -n "$SOFTWARE" ] && echo 900 || echo 200)" "$WORK/node" "$WORK/bench.mjs" $SMOKE $SOFTWARE | tee "$WORK/webgpu.jsonl" | cut -c1-160
echo "PyTorch ($TORCH_DEVICE): $(date +%T)"
"$PYTHON" - "$WORK/cases.json" "$WORK/webgpu.jsonl" "$HERE/parity/bench_step.py" "$TORCH_DEVICE" <<'PY'
import json, subprocess, sys
cases = json.load(open(sys.argv[1]))
lines = [json.loads(l) for l in open(sys.argv[2]) if l.startswith("{")]
head, ours = lines[0], {l["name"]: l for l in lines[1:] if "name" in l}
gemm = next((l["gemm"] for l in lines if "gemm" in l), None)
rows = []
for c in cases["cases"]:
    r = subprocess.run([sys.executable, sys.argv[3], "--kind", c.get("kind", "lino"), "--config", json.dumps(c["config"]), "--grid", *map(str, c["grid"]), "--batch", str(c["batch"]),
                        "--device", sys.argv[4], "--warmup", str(cases["warmup"]), "--steps", str(cases["steps"]), "--profile", "--threads", "4"],
                       capture_output=True, text=True, timeout=240)
    if r.returncode != 0:
        sys.exit(f"PyTorch failed on {c['name']}: {r.stderr.strip().splitlines()[-1]}")
    pt = json.loads(r.stdout.strip().splitlines()[-1])
    w = ours[c["name"]]
    rows.append((c["name"], pt["median_ms"], w["ms"], w["ms"] / pt["median_ms"], w["kernelsPerStep"], w["kernelsPerForward"], pt["aten_ops"], pt["torch"], w))
dev = sys.argv[4]
print(f"\nwebgpu adapter: {head['adapter']}; tfjs {head['tfjs']}; PyTorch {rows[0][7] if rows else '?'} on {dev}")
print(f"one training step (forward, backward, clip, AdamW), B4, median of {cases['steps']} after {cases['warmup']} warm-up steps")
print(f"| case | PyTorch {dev} ms | webgpu ms | webgpu / PyTorch | kernels per step | kernels per forward | PyTorch top-level aten ops per forward |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for n, p, w, q, k, kf, a, _, _ in rows:
    print(f"| {n} | {p:.1f} | {w:.1f} | {q:.1f} | {k} | {kf} | {a} |")
# wall time against GPU time: what the host adds (launches, reads, JS)
print("\nwall vs GPU: step wall (median), GPU time of a timed forward+backward (timestamp queries; n/a without timestamp-query),")
print("host time encoding the step's programs, GPU programs and GPU->CPU reads per step")
print("| case | step wall ms | fwd+bwd GPU ms | host encode ms | GPU programs per step | reads per step |")
print("| --- | --- | --- | --- | --- | --- |")
for n, _, wms, _, _, _, _, _, w in rows:
    g = w.get("gpuFwdBwdMs")
    print(f"| {n} | {wms:.1f} | {'n/a' if g is None else f'{g:.1f}'} | {w['hostMs']:.1f} | {w['programsPerStep']} | {w['reads']} |")
for n, *_, w in rows:
    print(f"\nprograms of one step, {n} (ranked by GPU time of the timed forward+backward, else by calls)")
    print("\n".join(w["table"]))
if gemm:
    # the GEMM section: LiNO's three products, our tiled GEMM vs tfjs's MatMulPacked vs torch.matmul
    gb = __import__("os").path.join(__import__("os").path.dirname(sys.argv[3]), "gemm_bench.py")
    r = subprocess.run([sys.executable, gb, "--rows", str(gemm[0]["rows"]), "--widths", *sorted({str(g["m"]) for g in gemm}, key=int), "--device", dev],
                       capture_output=True, text=True, timeout=120)
    pt = json.loads(r.stdout.strip().splitlines()[-1])["ms"] if r.returncode == 0 else {}
    if r.returncode != 0:
        print(f"PyTorch GEMM timing failed: {r.stderr.strip().splitlines()[-1]}")
    f = lambda x: "-" if x is None else (f"{x:.3f}" if x < 1 else f"{x:.2f}")
    print(f"\nGEMM products (ms per call, mean of back-to-back calls, median of 5 rounds), R = {gemm[0]['rows']} rows, weights M x M")
    print(f"| product | M | ours ms | tfjs MatMulPacked ms | PyTorch {dev} ms | tfjs / ours | ours / PyTorch |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for g in gemm:
        t = pt.get(g["key"])
        vs = "%.2f" % (g["oursMs"] / t) if t else "-"
        print(f"| {g['product']} | {g['m']} | {f(g['oursMs'])} | {f(g['tfjsMs'])} | {f(t)} | {g['tfjsMs'] / g['oursMs']:.2f} | {vs} |")
PY
echo "total $(( $(date +%s) - T0 )) s"
