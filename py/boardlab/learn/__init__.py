"""boardlab.learn: the learned evaluator of issue 40 (docs/learning.md).

Built so far: the network file format (netfile), a numpy reference of the kernel's
forward pass (reference), the same network in PyTorch (torch_model, needs the `train`
extra) and the kernel's per-game features (features). Not built yet: training,
the guided search, shipped networks.
"""
