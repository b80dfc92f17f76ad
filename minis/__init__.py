"""minis: the Axis & Allies Miniatures rules as a hex skirmish simulator."""

from minis.base import fast

__version__ = "0.1.0"

fast.on_import()  # MINIS_FAST=1: the compiled fast build (minis/base/fast.py, docs/engine.md)
