"""The kernel's forward pass (kernel/net/net.c) in numpy, float32: the reference the C
code is tested against (tests/test_net.py)."""
from __future__ import annotations

import numpy as np

from .netfile import NetSpec


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, np.float32(0))


def forward(spec: NetSpec, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """values (batch, n_value) and priors (batch, n_actions) for features x (batch, n_in);
    the priors are a softmax over the actions mask allows, zero elsewhere."""
    w = spec.weights
    h = _relu(x.astype(np.float32) @ w["in_w"].T + w["in_b"])
    for k in range(spec.blocks):
        t = _relu(h @ w[f"blocks.{k}.w1"].T + w[f"blocks.{k}.b1"])
        h = _relu(h + (t @ w[f"blocks.{k}.w2"].T + w[f"blocks.{k}.b2"]))
    v = h @ w["v_w"].T + w["v_b"]
    values = np.tanh(v) if spec.value_activation == "tanh" else v
    logits = np.where(mask, h @ w["p_w"].T + w["p_b"], -np.inf)
    top = np.max(logits, axis=1, keepdims=True)
    e = np.where(mask, np.exp(logits - np.where(np.isfinite(top), top, 0)), 0)
    total = e.sum(axis=1, keepdims=True)
    priors = np.divide(e, total, out=np.zeros_like(e), where=total > 0)
    return values.astype(np.float32), priors.astype(np.float32)
