"""Moved to scaleout/safetensors_io.py; re-exported so the parity scripts keep `import safetensors_io`."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from scaleout.safetensors_io import save, load  # noqa: E402,F401
