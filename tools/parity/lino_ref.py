"""The reference LiNO moved to the `scaleout` package (scaleout/model.py); this re-export keeps the
parity scripts (`from lino_ref import from_config`) working from this folder."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from scaleout.model import *  # noqa: E402,F401,F403
from scaleout.model import from_config, grid_coords, LiNO, COMPONENTS  # noqa: E402,F401
