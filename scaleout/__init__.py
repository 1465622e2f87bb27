"""scaleout: the workbench's training protocol in PyTorch, for runs on many GPUs or machines.

  torchrun --nproc_per_node=N -m scaleout.train --run-dir RUN_DIR --data EXPORT_DIR

reads a dataset exported by the workbench (prepared layout, .npy) and a run's config.json, trains
under DistributedDataParallel and writes the workbench's run format (config.json, metrics.jsonl,
status.json, checkpoints/{last,best}/ as safetensors + state.json), which the workbench opens and
resumes. See docs/scaleout.md."""
