// A tiny bridge that runs OpenSpiel's C++ ISMCTSBot on a Python game
// (boardlab.interop.openspiel), built against the open_spiel wheel's own
// headers and pyspiel.so by bench/openspiel_bridge/build.py.
//
// Why: in open_spiel 2.0.2 the C++ side of a Python state does not forward
// ResampleFromInfostate to Python, so pyspiel.ISMCTSBot cannot determinize a
// Python game. ISMCTSBot::SetResampler (not exposed to Python) takes a
// resampler callback instead: here it clones the state in C++ and lets a Python
// function determinize the clone in place (the adapter's determinize).
//
// The state is passed as the address of its C++ object (read from the pybind11
// instance by the Python side); the GIL is held throughout, since every game
// call goes back into Python anyway.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cstdint>
#include <memory>

#include "open_spiel/algorithms/is_mcts.h"
#include "open_spiel/spiel.h"

namespace {

using open_spiel::Action;
using open_spiel::Player;
using open_spiel::State;
namespace alg = open_spiel::algorithms;

long long g_resamples = 0;

// step(state_address, seed, uct_c, max_simulations, max_seconds, resample_cb)
//   -> (action, simulations)
// resample_cb(clone_address, player, u) determinizes the clone in place.
PyObject* Step(PyObject*, PyObject* args) {
  unsigned long long addr;
  int seed, max_sims;
  double uct_c, max_seconds;
  PyObject* cb;
  if (!PyArg_ParseTuple(args, "KididO", &addr, &seed, &uct_c, &max_sims, &max_seconds, &cb))
    return nullptr;
  if (!PyCallable_Check(cb)) {
    PyErr_SetString(PyExc_TypeError, "resample_cb must be callable");
    return nullptr;
  }
  const State* state = reinterpret_cast<const State*>(static_cast<uintptr_t>(addr));
  auto evaluator = std::make_shared<alg::RandomRolloutEvaluator>(1, seed);
  alg::ISMCTSBot bot(seed, evaluator, uct_c, max_sims, alg::kUnlimitedNumWorldSamples,
                     alg::ISMCTSFinalPolicyType::kMaxVisitCount,
                     /*use_observation_string=*/false,
                     /*allow_inconsistent_action_sets=*/false, max_seconds);
  bool failed = false;
  g_resamples = 0;
  bot.SetResampler([cb, &failed](const State& s, Player player,
                                 std::function<double()> rng) -> std::unique_ptr<State> {
    std::unique_ptr<State> clone = s.Clone();
    ++g_resamples;
    if (failed) return clone;
    PyObject* r = PyObject_CallFunction(
        cb, "Kid", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(clone.get())),
        static_cast<int>(player), rng());
    if (r == nullptr) failed = true;
    Py_XDECREF(r);
    return clone;
  });
  Action action;
  try {
    action = bot.Step(*state);
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
    return nullptr;
  }
  if (failed) return nullptr;  // the Python error is set
  return Py_BuildValue("(LL)", static_cast<long long>(action), g_resamples);
}

PyMethodDef kMethods[] = {
    {"step", Step, METH_VARARGS, "Run OpenSpiel's C++ ISMCTSBot from a state; (action, sims)."},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef kModule = {PyModuleDef_HEAD_INIT, "_os_bridge", nullptr, -1, kMethods};

}  // namespace

PyMODINIT_FUNC PyInit__os_bridge(void) { return PyModule_Create(&kModule); }
