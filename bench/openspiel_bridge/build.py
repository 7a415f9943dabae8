"""Build (once, cached) and load the C++ bridge that runs OpenSpiel's C++
ISMCTSBot on boardlab games through boardlab.interop.openspiel (bridge.cc says
why it is needed). Needs g++ and the Python headers; compiles against the
installed open_spiel wheel (its headers and pyspiel.so).

    from openspiel_bridge.build import load_bridge
    bridge = load_bridge()            # (module, None) or (None, reason)
"""
import ctypes
import hashlib
import importlib.util
import os
import subprocess
import sys
import sysconfig
import weakref

HERE = os.path.dirname(os.path.abspath(__file__))


def _build(out: str) -> None:
    import pyspiel
    sp = os.path.dirname(pyspiel.__file__)
    inc = sysconfig.get_paths()["include"]
    cmd = ["g++", "-std=c++17", "-O2", "-fPIC", "-shared", os.path.join(HERE, "bridge.cc"),
           f"-I{sp}", f"-I{sp}/open_spiel/abseil-cpp", f"-I{sp}/open_spiel/json/include",
           f"-I{inc}", f"-L{sp}", "-l:pyspiel.so", f"-Wl,-rpath,{sp}", "-o", out]
    subprocess.run(cmd, check=True, capture_output=True, text=True)


def load_bridge():
    """(bridge module, None), or (None, reason) when it cannot be built."""
    try:
        import pyspiel
        src = open(os.path.join(HERE, "bridge.cc"), "rb").read()
        key = hashlib.sha1(src + pyspiel.__file__.encode()).hexdigest()[:12]
        build_dir = os.path.join(HERE, "_build")
        os.makedirs(build_dir, exist_ok=True)
        out = os.path.join(build_dir, f"_os_bridge_{key}" + sysconfig.get_config_var("EXT_SUFFIX"))
        if not os.path.exists(out):
            _build(out)
        spec = importlib.util.spec_from_file_location("_os_bridge", out)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod, None
    except subprocess.CalledProcessError as e:
        return None, f"build failed: {e.stderr.strip().splitlines()[-1] if e.stderr else e}"
    except Exception as e:  # noqa: BLE001
        return None, f"{type(e).__name__}: {e}"


def cpp_address(obj) -> int:
    """Address of the C++ object behind a pyspiel State made in Python (pybind11
    keeps it in a values-and-holders block for these classes: instance + 16
    points at it, and its first word is the value pointer)."""
    block = ctypes.c_void_p.from_address(id(obj) + 16).value
    return ctypes.c_void_p.from_address(block).value


class CppISMCTS:
    """OpenSpiel's C++ ISMCTSBot (random-rollout evaluator, max-visit final
    move, unlimited world samples) on an adapter state, through the bridge."""

    def __init__(self, bridge, uct_c: float = 1.0):
        from boardlab.interop import openspiel as bos
        self.bridge = bridge
        self.uct_c = uct_c
        self.live = weakref.WeakValueDictionary()
        live = self.live
        bos.BoardlabState._on_new = lambda s: live.__setitem__(cpp_address(s), s)

    def _resample(self, address, player, u):
        state = self.live[address]
        state._c = state._c.determinize(int(player), int(u * (1 << 53)))

    def step(self, state, seed: int, simulations: int = 1 << 30, seconds: float = -1.0):
        """(action, simulations run) with a simulation or a wall-clock budget."""
        self.live[cpp_address(state)] = state
        return self.bridge.step(cpp_address(state), int(seed) & 0x7FFFFFFF, float(self.uct_c),
                                int(simulations), float(seconds), self._resample)
