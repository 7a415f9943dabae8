"""boardlab.learn: training the learned evaluator of issue 40 by self-play, `boardlab train`
(docs/learning.md).

config (the run's settings), selfplay, replay, trainer, gate, log, plot, run (the trainer, its
PyTorch model torch_model and run need the `train` extra; self-play workers do not), and ship (`boardlab nets ship`: a finished
run's best network into the networks folder, with its manifest entry). What a search needs at
play time (the file format, the features, the numpy reference, the shipped networks and their
manifest) is boardlab.nets, which this package imports and which never imports it.
"""
