"""One observation-tensor encoder per game (used through
:mod:`boardlab.interop.tensors`), and the :class:`~.writer.Writer` they fill."""
