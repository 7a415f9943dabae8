"""boardlab.learn: the learned evaluator of issue 40 (docs/learning.md).

The network file format (netfile), a numpy reference of the kernel's forward pass
(reference), the same network in PyTorch (torch_model, needs the `train` extra), the
kernel's per-game features (features), which network a search uses (nets), and training
by self-play, `boardlab train` (selfplay, replay, trainer, gate, plot, run; the trainer
and run need the `train` extra, self-play workers do not). The networks that ship are in
boardlab/data/nets/, read by `net=default` (docs/learning.md, "What ships").
"""
