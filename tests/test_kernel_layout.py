"""The kernel's layout: inside a kernel folder (a game's, the search's) the files depend on
each other one way.

A file depends on another when it calls a function defined there. rules.c may call
score.c's scoring, but score.c may not call back into rules.c's flow: a cycle means the two
files are one concern split in two, and neither can be read alone (Stockfish's
position / movegen / evaluate split is the model, DESIGN.md)."""
import re
from pathlib import Path

import pytest

KERNEL = Path(__file__).resolve().parents[1] / "kernel"
FOLDERS = sorted(p.name for p in KERNEL.iterdir() if p.is_dir() and p.name != "common"
               and list(p.glob("*.c")))
# A function definition at the start of a line: return type(s), name, "(", and a body.
DEFINITION = re.compile(r"^(?!static\b)[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\([^;{]*\)\s*\{",
                        re.MULTILINE)
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)


def dependencies(folder: Path) -> dict[str, set[str]]:
    """For each .c file of the folder, the other files of the folder whose functions it calls."""
    texts = {f.name: COMMENT.sub(" ", f.read_text()) for f in sorted(folder.glob("*.c"))}
    defined = {name: {m.group(1) for m in DEFINITION.finditer(text)}
               for name, text in texts.items()}
    deps = {}
    for name, text in texts.items():
        deps[name] = {other for other, funcs in defined.items() if other != name
                      and any(re.search(rf"\b{f}\s*\(", text) for f in funcs)}
    return deps


def cycle(deps: dict[str, set[str]]) -> list[str] | None:
    """A dependency cycle, as the files along it, or None."""
    state: dict[str, int] = {}

    def visit(node, path):
        state[node] = 1
        for nxt in sorted(deps[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt, path + [nxt])):
                return found
        state[node] = 2
        return None

    for start in sorted(deps):
        if start not in state and (found := visit(start, [start])):
            return found
    return None


def test_the_dependency_reader_sees_calls_and_cycles(tmp_path):
    (tmp_path / "a.c").write_text("int f_a(int x) {\n    return f_b(x);\n}\n")
    (tmp_path / "b.c").write_text("/* f_a( in a comment */\nint f_b(int x) {\n    return x;\n}\n")
    assert dependencies(tmp_path) == {"a.c": {"b.c"}, "b.c": set()}
    assert cycle(dependencies(tmp_path)) is None
    (tmp_path / "b.c").write_text("int f_b(int x) {\n    return x ? f_a(x - 1) : 0;\n}\n")
    assert cycle(dependencies(tmp_path)) == ["a.c", "b.c", "a.c"]


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_kernel_folders_files_depend_on_each_other_one_way(folder):
    assert {"keyside", "kitsu", "kyushu", "nukumi"} <= set(FOLDERS)
    deps = dependencies(KERNEL / folder)
    assert cycle(deps) is None, f"kernel/{folder}: {' -> '.join(cycle(deps))} call each other"
