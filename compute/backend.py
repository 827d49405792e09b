"""torch, imported on first use only (importing `compute` must stay torch-free)."""

from __future__ import annotations

_configured = False


def torch():
    """The torch module, configured once for many tiny float64 problems."""
    global _configured
    import torch as _torch

    if not _configured:
        # The problems are a few dozen numbers: thread hand-off costs more than it saves.
        _torch.set_num_threads(1)
        _configured = True
    return _torch
