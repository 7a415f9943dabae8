"""The kernel's network in PyTorch (the `train` extra: pip install "boardlab[train]"),
loaded from and exported to the kernel's file format. The trainer (`boardlab train`) uses it;
nothing that plays needs it."""
from __future__ import annotations

import numpy as np
import torch
from torch import nn

from ..nets.netfile import NetSpec


class Block(nn.Module):
    def __init__(self, width: int):
        super().__init__()
        self.l1 = nn.Linear(width, width)
        self.l2 = nn.Linear(width, width)

    def forward(self, h):
        return torch.relu(h + self.l2(torch.relu(self.l1(h))))


class PolicyValueNet(nn.Module):
    """input -> Linear -> ReLU -> blocks -> (value head, policy head), as net.h."""

    def __init__(self, n_in: int, width: int, blocks: int, n_value: int, n_actions: int,
                 value_activation: str = "tanh"):
        super().__init__()
        self.inp = nn.Linear(n_in, width)
        self.blocks = nn.ModuleList(Block(width) for _ in range(blocks))
        self.value = nn.Linear(width, n_value)
        self.policy = nn.Linear(width, n_actions)
        self.value_activation = value_activation

    def forward(self, x, mask):
        """(values, masked log-priors); exp of the log-priors is the kernel's prior."""
        h = torch.relu(self.inp(x))
        for b in self.blocks:
            h = b(h)
        v = self.value(h)
        if self.value_activation == "tanh":
            v = torch.tanh(v)
        logits = self.policy(h).masked_fill(~mask, float("-inf"))
        return v, torch.log_softmax(logits, dim=1)

    @classmethod
    def from_spec(cls, spec: NetSpec) -> "PolicyValueNet":
        net = cls(spec.n_in, spec.width, spec.blocks, spec.n_value, spec.n_actions,
                  spec.value_activation)
        with torch.no_grad():
            for name, param in _params(net):
                param.copy_(torch.from_numpy(np.ascontiguousarray(spec.weights[name])))
        return net

    def to_spec(self, game: str, config: str) -> NetSpec:
        spec = NetSpec(game, config, self.inp.in_features, self.inp.out_features,
                       len(self.blocks), self.value.out_features, self.policy.out_features,
                       self.value_activation)
        for name, param in _params(self):
            spec.weights[name] = param.detach().cpu().numpy().astype(np.float32)
        return spec


def _params(net: PolicyValueNet):
    """(file name, parameter) pairs in the file's order."""
    yield "in_w", net.inp.weight
    yield "in_b", net.inp.bias
    for k, b in enumerate(net.blocks):
        yield f"blocks.{k}.w1", b.l1.weight
        yield f"blocks.{k}.b1", b.l1.bias
        yield f"blocks.{k}.w2", b.l2.weight
        yield f"blocks.{k}.b2", b.l2.bias
    yield "v_w", net.value.weight
    yield "v_b", net.value.bias
    yield "p_w", net.policy.weight
    yield "p_b", net.policy.bias
