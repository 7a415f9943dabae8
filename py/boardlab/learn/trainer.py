"""The learner: PyTorch training of PolicyValueNet on a replay window (needs the `train`
extra), and its checkpoints.

Loss per sample = value MSE (mean over the outputs of the table's seats) + policy cross-entropy against the
search's visit distribution (over the legal actions); Adam with weight decay. The value target
is the game's final returns, or with ``value_search_weight`` w > 0, (1 - w) * returns + w * the
search's root estimate where the search gave one. Everything is
seeded from the run's seed and the generation, and torch runs on one thread, so the same
window gives the same network in every run (a resumed run included).
"""
from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
import torch

from .samples import Samples
from .torch_model import PolicyValueNet

__all__ = ["TrainSettings", "Losses", "new_learner", "train_epochs", "evaluate", "save_checkpoint",
           "load_checkpoint"]


@dataclass(frozen=True)
class TrainSettings:
    epochs: int = 2
    batch: int = 256
    lr: float = 1e-3
    weight_decay: float = 1e-4
    value_search_weight: float = 0.0


@dataclass
class Losses:
    value: float
    policy: float

    @property
    def total(self) -> float:
        return self.value + self.policy


def _deterministic(seed: int) -> None:
    # One thread: a matrix product summed in another order would give other bits.
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    torch.manual_seed(seed)


def new_learner(shape: dict, settings: TrainSettings, seed: int):
    """A fresh (model, optimizer); ``shape`` has n_in, width, blocks, n_value, n_actions."""
    _deterministic(seed)
    model = PolicyValueNet(shape["n_in"], shape["width"], shape["blocks"], shape["n_value"],
                           shape["n_actions"])
    return model, _optimizer(model, settings)


def learner_from_spec(spec, settings: TrainSettings):
    """(model, optimizer) continuing the network ``spec`` (a NetSpec), a fresh optimizer."""
    model = PolicyValueNet.from_spec(spec)
    return model, _optimizer(model, settings)


def _optimizer(model, settings: TrainSettings):
    return torch.optim.Adam(model.parameters(), lr=settings.lr, weight_decay=settings.weight_decay)


def _loss(model, x, mask, target, value):
    v, logp = model(x, mask)
    # The mean over the seats of the sample's table: a network for several player counts
    # has an output per seat of the largest, and the others' targets are NaN.
    seated = ~torch.isnan(value)
    err = torch.where(seated, (v - torch.nan_to_num(value)) ** 2, torch.zeros_like(v))
    value_loss = err.sum(dim=1) / seated.sum(dim=1).clamp(min=1)
    # Illegal actions have log-prior -inf and target 0: leave them out, not 0 * -inf.
    policy_loss = -torch.where(mask, target * logp, torch.zeros_like(logp)).sum(dim=1)
    return value_loss, policy_loss


def value_target(s: Samples, search_weight: float) -> np.ndarray:
    """The value target of each sample (see the module's docstring)."""
    if search_weight <= 0:
        return np.ascontiguousarray(s.value)
    known = ~np.isnan(s.search_value)
    mixed = (1 - search_weight) * s.value + search_weight * np.where(known, s.search_value, 0)
    return np.ascontiguousarray(np.where(known, mixed, s.value), dtype=np.float32)


def _tensors(s: Samples, n_actions: int, search_weight: float):
    x, mask, target = s.dense(n_actions)
    return (torch.from_numpy(np.ascontiguousarray(x)), torch.from_numpy(mask),
            torch.from_numpy(target), torch.from_numpy(value_target(s, search_weight)))


def train_epochs(model, optimizer, data: Samples, settings: TrainSettings, seed: int) -> Losses:
    """``settings.epochs`` passes over ``data`` in seeded random minibatches; the mean losses
    of the last pass."""
    _deterministic(seed)
    rng = np.random.default_rng(seed)
    n_actions = model.policy.out_features
    model.train()
    vs = ps = 0.0
    for _ in range(settings.epochs):
        order = rng.permutation(len(data))
        vs = ps = 0.0
        for start in range(0, len(order), settings.batch):
            rows = np.sort(order[start:start + settings.batch])
            vl, pl = _loss(model, *_tensors(data.select(rows), n_actions,
                                            settings.value_search_weight))
            loss = (vl + pl).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            vs += float(vl.detach().sum())
            ps += float(pl.detach().sum())
    n = max(1, len(data))
    return Losses(vs / n, ps / n)


@torch.no_grad()
def evaluate(model, data: Samples, batch: int = 1024, search_weight: float = 0.0) -> Losses:
    """Mean losses of ``model`` on ``data`` (no training), against the value target of
    ``search_weight``."""
    model.eval()
    n_actions = model.policy.out_features
    vs = ps = 0.0
    for start in range(0, len(data), batch):
        rows = np.arange(start, min(start + batch, len(data)))
        vl, pl = _loss(model, *_tensors(data.select(rows), n_actions, search_weight))
        vs += float(vl.sum())
        ps += float(pl.sum())
    n = max(1, len(data))
    return Losses(vs / n, ps / n)


def save_checkpoint(model, optimizer, meta: dict) -> bytes:
    """The learner as bytes (torch.save to memory: the same bytes for the same learner,
    whatever file name it is written under)."""
    buf = io.BytesIO()
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "meta": dict(meta)}, buf)
    return buf.getvalue()


def load_checkpoint(data: bytes, settings: TrainSettings):
    """(model, optimizer, meta) from :func:`save_checkpoint`'s bytes."""
    ck = torch.load(io.BytesIO(data), weights_only=True)
    m = ck["meta"]
    model = PolicyValueNet(m["n_in"], m["width"], m["blocks"], m["n_value"], m["n_actions"])
    model.load_state_dict(ck["model"])
    optimizer = _optimizer(model, settings)
    optimizer.load_state_dict(ck["optimizer"])
    return model, optimizer, m
