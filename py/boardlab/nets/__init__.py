"""boardlab.nets: what a search needs of the learned evaluator at play time (docs/learning.md).

The network file format (netfile), the numpy reference of the kernel's forward pass
(reference), the kernel's per-game features (features), the manifest of the networks that
ship (manifest; ``boardlab nets`` checks it, with check and listing) and which network a
search uses (loader: ``net=default`` or a file). Training, `boardlab train`, is
boardlab.learn, which imports this package and is never imported by it.
"""
from .loader import (config_key, default_entry, default_path, default_settings, is_default,
                     load_net, reading, shipped)

__all__ = ["config_key", "default_entry", "default_path", "default_settings", "is_default",
           "load_net", "reading", "shipped"]
