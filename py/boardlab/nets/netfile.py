"""The network file format the kernel reads (kernel/net/net.h), written and read in Python.

A network is a NetSpec: its header fields and its weights as float32 numpy arrays, in
the kernel's order (input layer, residual blocks, value head, policy head), each weight
matrix output-major as torch.nn.Linear stores it.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field

import numpy as np

MAGIC = b"BLNET\r\n\x1a"
VERSION = 1
HEADER = struct.Struct("<8sI16s32s5I2I")       # 88 bytes, as net.h lays it out
DTYPES = {"float32": 1, "float16": 2}
ACTIVATIONS = {"tanh": 0, "linear": 1}


@dataclass
class NetSpec:
    game: str
    config: str
    n_in: int
    width: int
    blocks: int
    n_value: int
    n_actions: int
    value_activation: str = "tanh"
    # name -> float32 array: in_w (width, n_in), in_b, blocks.{k}.w1/b1/w2/b2, v_w, v_b, p_w, p_b
    weights: dict[str, np.ndarray] = field(default_factory=dict)

    def shapes(self) -> list[tuple[str, tuple[int, ...]]]:
        """Every weight's name and shape, in file order."""
        W = self.width
        out = [("in_w", (W, self.n_in)), ("in_b", (W,))]
        for k in range(self.blocks):
            out += [(f"blocks.{k}.w1", (W, W)), (f"blocks.{k}.b1", (W,)),
                    (f"blocks.{k}.w2", (W, W)), (f"blocks.{k}.b2", (W,))]
        return out + [("v_w", (self.n_value, W)), ("v_b", (self.n_value,)),
                      ("p_w", (self.n_actions, W)), ("p_b", (self.n_actions,))]


def random_spec(game: str, config: str, n_in: int, width: int, blocks: int, n_value: int,
                n_actions: int, seed: int = 0, value_activation: str = "tanh") -> NetSpec:
    """A network with He-scaled random weights (for tests and benchmarks; not trained)."""
    spec = NetSpec(game, config, n_in, width, blocks, n_value, n_actions, value_activation)
    rng = np.random.default_rng(seed)
    for name, shape in spec.shapes():
        scale = np.sqrt(2.0 / shape[1]) if len(shape) == 2 else 0.1
        spec.weights[name] = (rng.standard_normal(shape) * scale).astype(np.float32)
    return spec


def to_bytes(spec: NetSpec, dtype: str = "float32") -> bytes:
    """The file image of spec, weights stored as dtype ("float32" or "float16")."""
    if dtype not in DTYPES:
        raise ValueError(f"dtype must be one of {sorted(DTYPES)}, got {dtype!r}")
    head = HEADER.pack(MAGIC, VERSION, spec.game.encode("ascii"), spec.config.encode("ascii"),
                       spec.n_in, spec.width, spec.blocks, spec.n_value, spec.n_actions,
                       DTYPES[dtype], ACTIVATIONS[spec.value_activation])
    parts = [head]
    for name, shape in spec.shapes():
        w = np.asarray(spec.weights[name])
        if w.shape != shape:
            raise ValueError(f"{name}: shape {w.shape}, the network needs {shape}")
        parts.append(w.astype("<f4" if dtype == "float32" else "<f2").tobytes())
    return b"".join(parts)


def from_bytes(data: bytes) -> NetSpec:
    """Parse a file image (weights as float32). The kernel's loader is the one that
    validates every field for play; this one checks enough to read it back."""
    if len(data) < HEADER.size or data[:8] != MAGIC:
        raise ValueError("not a boardlab network file")
    (_, version, game, config, n_in, width, blocks, n_value, n_actions, dtype,
     act) = HEADER.unpack_from(data)
    if version != VERSION:
        raise ValueError(f"network file version {version}, this reads {VERSION}")
    names = {v: k for k, v in DTYPES.items()}
    spec = NetSpec(game.rstrip(b"\0").decode("ascii"), config.rstrip(b"\0").decode("ascii"),
                   n_in, width, blocks, n_value, n_actions,
                   {v: k for k, v in ACTIVATIONS.items()}[act])
    kind = "<f4" if names[dtype] == "float32" else "<f2"
    at = HEADER.size
    for name, shape in spec.shapes():
        n = int(np.prod(shape))
        spec.weights[name] = np.frombuffer(data, kind, n, at).astype(np.float32).reshape(shape)
        at += n * np.dtype(kind).itemsize
    if at != len(data):
        raise ValueError("network file size does not match its header")
    return spec
