#!/usr/bin/env bash
# Sanitizer run: build boardlab with AddressSanitizer + UBSan (-O1 -g, CMake option
# BOARDLAB_SANITIZE) into its own virtualenv, then run the conformance suite, the search
# tests, the kernel-safety tests (every action id named and applied on every game's states,
# the search tree export, positions round-tripped) and the network tests (every game's
# features over played games, every truncation of a network file, the forward pass) under it.
# Any memory error or undefined behaviour in the kernel or the bindings stops the run with a
# report (exit status non-zero).
#
#   bash scripts/sanitize.sh [extra pytest arguments]
#
# Environment: PYTHON (default python3), CC (default cc), BOARDLAB_SANITIZE_DIR (where the
# virtualenv goes; default a fresh temporary directory, removed afterwards).
set -euo pipefail
cd "$(dirname "$0")/.."

PY="${PYTHON:-python3}"
CC="${CC:-cc}"
export CC
if [ -n "${BOARDLAB_SANITIZE_DIR:-}" ]; then
    DIR="$BOARDLAB_SANITIZE_DIR"
    mkdir -p "$DIR"
else
    DIR="$(mktemp -d "${TMPDIR:-/tmp}/boardlab-sanitize.XXXXXX")"
    trap 'rm -rf "$DIR"' EXIT
fi

# The Python interpreter is not instrumented, so the ASan runtime is preloaded.
LIBASAN="$("$CC" -print-file-name=libasan.so)"
if [ ! -e "$LIBASAN" ]; then
    echo "sanitize: $CC has no libasan.so (install the compiler's sanitizer runtime, e.g. libasan8)" >&2
    exit 1
fi

echo "==> building boardlab with ASan + UBSan in $DIR/venv"
# An isolated virtualenv: a boardlab installed for this Python (an editable install's import
# hook in particular) would otherwise be imported instead of the sanitizer build.
"$PY" -m venv "$DIR/venv"
VPY="$DIR/venv/bin/python"
"$VPY" -m pip install -q "scikit-build-core>=0.10" "cython>=3" "cython-cmake>=0.2" numpy pytest hypothesis \
    pytest-xdist
# CMake and Ninja too, unless suitable ones are installed (what pip's isolated build adds).
tools="$("$VPY" -c 'from scikit_build_core.build import get_requires_for_build_wheel as g; print(" ".join(g()))')"
if [ -n "$tools" ]; then
    # shellcheck disable=SC2086
    "$VPY" -m pip install -q $tools
fi
# A wheel build (not editable) in a temporary build directory: the normal build/ cache
# of an editable install is left alone.
"$VPY" -m pip install -q --no-build-isolation --no-deps --force-reinstall \
    -C cmake.define.BOARDLAB_SANITIZE=ON .

# Python itself leaks by design at exit: no leak check. Stop at the first UBSan report.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1"

core="$(LD_PRELOAD="$LIBASAN" "$VPY" -c 'import boardlab._core as c; print(c.__file__)')"
case "$core" in
    "$DIR"/venv/*) ;;
    *) echo "sanitize: boardlab._core was imported from $core, not the sanitizer build" >&2; exit 1 ;;
esac
# grep reads all of ldd's output: with -q it could exit at the first match and, under
# pipefail, ldd's SIGPIPE would fail the check although the library is linked.
if ! ldd "$core" | grep libasan >/dev/null; then
    echo "sanitize: $core is not linked with ASan" >&2
    exit 1
fi

echo "==> pytest tests/test_conformance.py tests/test_search.py tests/test_kernel_safety.py tests/test_net.py tests/test_guided_search.py under ASan + UBSan"
start=$(date +%s)
# --capture=sys: a report written to fd 2 just before the abort reaches the log (pytest's
# default fd capture would swallow it with the process). The tests run in pytest-xdist
# workers (pyproject.toml's -n auto), which share this script's stderr: a worker that aborts
# fails its test ("worker crashed") and the run, with the report above it.
LD_PRELOAD="$LIBASAN" "$VPY" -m pytest -q -p no:cacheprovider --capture=sys \
    tests/test_conformance.py tests/test_search.py tests/test_kernel_safety.py tests/test_net.py tests/test_guided_search.py "$@"
echo "==> sanitizer run passed in $(( $(date +%s) - start )) s"
