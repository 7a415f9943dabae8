"""The README and docs/*.md name only what exists (issue 54): every relative link and picture,
every repository path, every ``boardlab.*`` module or attribute, every ``boardlab`` command and
the options written after it (and a bench script's), every option of every command in
docs/cli.md, and the README's Python example runs. A renamed file, module or option fails here
instead of rotting in the docs.

Read from the source tree beside this file (tests/..); skipped where there is none (the smoke
tests run from a folder holding tests/ alone). Modules are found with
``importlib.util.find_spec`` and their names read with ``ast``, so a module whose optional
dependency is missing (OpenSpiel, PettingZoo) is still checked; the CLI's parser is queried in
process.
"""
from __future__ import annotations

import ast
import importlib
import importlib.util
import re
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
if not README.is_file():
    pytest.skip("no source tree beside the tests (README.md)", allow_module_level=True)

#: The checked pages: the front door and docs/*.md (docs/experiments/ are dated notebooks that
#: name what existed when each run was made; their links are checked, not their paths).
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
NOTEBOOKS = sorted((ROOT / "docs" / "experiments").glob("*.md"))

#: Top-level folders whose paths are checked wherever a page names them.
REPO_DIRS = ("py/boardlab", "streamlit_app", "kernel", "tests", "bench", "scripts", "docs",
             ".ci", ".github")
#: A token with one of these is a pattern, not a path: kernel/<game>/features.c, bench/*.py.
PLACEHOLDER = re.compile(r"[<>*{}]|\.\.\.|…")
#: File names a ``boardlab.<x>`` token may be instead of a module (boardlab.db: the store).
FILE_SUFFIXES = {"db", "md", "json", "py", "png", "svg", "blnet", "parquet", "csv", "toml",
                 "pyx", "pxd", "so", "whl"}

FENCE = re.compile(r"^(```|~~~)([^\n]*)\n(.*?)^\1[ \t]*$", re.M | re.S)
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
PATH = re.compile(r"(?<![\w/.~$-])((?:%s)/[^\s`'\"()\[\],;|]*)"
                  % "|".join(re.escape(d) for d in REPO_DIRS))
MODULE = re.compile(r"(?<![\w.])boardlab(?:\.[A-Za-z_]\w*)+")
COMMAND = re.compile(r"(?:^|&&|;|\$|\bthen\b)\s*(?:python3? -m )?boardlab(?![\w.])"
                     r"((?:[ \t]+[^\s&;#]+)*)", re.M)


def _rel(page: Path) -> str:
    return str(page.relative_to(ROOT))


@lru_cache(maxsize=None)
def _split(page: Path):
    """(prose without code, [(lang, fenced block)], [inline code span])."""
    text = page.read_text(encoding="utf-8")
    blocks = [(m.group(2).strip().lower(), m.group(3)) for m in FENCE.finditer(text)]
    prose = FENCE.sub("\n", text)
    spans = [m.group(2) for m in CODE_SPAN.finditer(prose)]
    prose = CODE_SPAN.sub(" ", prose)
    return prose, blocks, spans


def _ids(pages):
    return [_rel(p) for p in pages]


# --- links and pictures ----------------------------------------------------------------------
@lru_cache(maxsize=None)
def _anchors(page: Path) -> frozenset:
    """The anchors GitHub gives the page's headings (lower case, punctuation dropped, spaces
    to hyphens, a repeated one numbered), and any explicit id= or name=."""
    text = FENCE.sub("\n", page.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    anchors = set(re.findall(r"""(?:id|name)=["']([^"']+)["']""", text))
    for heading in re.findall(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", text, re.M):
        heading = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)      # a link: its text
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        anchors.add(slug if n == 0 else f"{slug}-{n}")
    return frozenset(anchors)


@pytest.mark.parametrize("page", PAGES + NOTEBOOKS, ids=_ids(PAGES + NOTEBOOKS))
def test_every_relative_link_and_picture_exists(page):
    prose, _, _ = _split(page)
    missing = []
    for target in LINK.findall(prose):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):
            continue                                      # a web address
        path, _, anchor = target.partition("#")
        path = path.split("?", 1)[0]
        base = ROOT if path.startswith("/") else page.parent
        file = (base / path.lstrip("/")) if path else page
        if not file.exists():
            missing.append(target)
        elif anchor and file.suffix == ".md" and anchor.lower() not in _anchors(file.resolve()):
            missing.append(f"{target} (no such heading)")
    assert not missing, f"{_rel(page)} links to what does not exist: {missing}"


# --- repository paths ------------------------------------------------------------------------
def _paths(page: Path):
    prose, blocks, spans = _split(page)
    found = set()
    for text in [prose, *spans, *(b for _, b in blocks)]:
        for token in PATH.findall(text):
            token = token.split("::", 1)[0].split("#", 1)[0].rstrip(".,:;!?")
            if token and not PLACEHOLDER.search(token):
                found.add(token)
    return sorted(found)


def _path_exists(token: str) -> bool:
    if (ROOT / token).exists():
        return True
    # streamlit_app/session.presets_for: a name in streamlit_app/session.py
    m = re.fullmatch(r"(.+)\.([A-Za-z_]\w*)", token)
    source = ROOT / f"{m.group(1)}.py" if m else None
    return bool(source and source.is_file() and m.group(2) in _top_level_names(
        ast.parse(source.read_text(encoding="utf-8"))))


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_every_repository_path_exists(page):
    missing = [p for p in _paths(page) if not _path_exists(p)]
    assert not missing, f"{_rel(page)} names paths that do not exist: {missing}"


# --- modules ---------------------------------------------------------------------------------
def _top_level_names(tree: ast.Module) -> dict[str, ast.AST]:
    names: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        names[n.id] = node
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                names[(a.asname or a.name).split(".")[0]] = node
        elif isinstance(node, (ast.If, ast.Try)):
            for sub in ast.walk(node):
                if isinstance(sub, (ast.FunctionDef, ast.ClassDef)):
                    names.setdefault(sub.name, sub)
                elif isinstance(sub, (ast.Import, ast.ImportFrom)):
                    for a in sub.names:
                        names.setdefault((a.asname or a.name).split(".")[0], sub)
                elif isinstance(sub, ast.Assign):
                    for t in sub.targets:
                        if isinstance(t, ast.Name):
                            names.setdefault(t.id, sub)
    return names


@lru_cache(maxsize=None)
def _module_names(name: str):
    """Top-level names of module ``name`` read from its source, or None (compiled module)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return _top_level_names(ast.parse(Path(spec.origin).read_text(encoding="utf-8")))


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    # the longest prefix that is a module; the rest are attributes
    for cut in range(len(parts), 0, -1):
        if _is_module(".".join(parts[:cut])):
            break
    module, attrs = ".".join(parts[:cut]), parts[cut:]
    if not attrs:
        return True
    names = _module_names(module)
    if names is not None:
        node = names.get(attrs[0])
        if node is None:
            return False
        if len(attrs) == 1:
            return True
        if isinstance(node, ast.ClassDef):          # Class.method
            return any(getattr(n, "name", None) == attrs[1] for n in node.body) or any(
                isinstance(n, ast.Name) and n.id == attrs[1] for n in ast.walk(node))
    try:                                          # compiled, re-exported or nested: import it
        obj = importlib.import_module(module)
        for a in attrs:
            obj = getattr(obj, a)
        return True
    except (ImportError, AttributeError):
        return False


def _modules(page: Path):
    _, blocks, spans = _split(page)
    found = set()
    python = [b for lang, b in blocks if lang in ("", "python", "py", "pycon")]
    for text in [*spans, *python]:
        for token in MODULE.findall(text):
            if token.rsplit(".", 1)[1] not in FILE_SUFFIXES:
                found.add(token)
    for text in python:                           # from boardlab.x import y, z
        for module, names in re.findall(r"^\s*from (boardlab[\w.]*) import ([\w, ]+)", text, re.M):
            found.update(f"{module}.{n.split(' as ')[0].strip()}" for n in names.split(",")
                         if n.strip())
    return sorted(found)


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_every_boardlab_module_and_attribute_exists(page):
    missing = [m for m in _modules(page) if not _resolves(m)]
    assert not missing, f"{_rel(page)} names modules or attributes that do not exist: {missing}"


# --- commands --------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def _parser():
    from boardlab.cli import build_parser
    return build_parser()


def _subparsers(parser=None):
    """name (aliases too) -> parser of the commands under ``parser`` (the root's by default;
    {} where it has none, as most commands)."""
    import argparse
    parser = parser or _parser()
    action = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)),
                  None)
    return action.choices if action else {}


def _options(parser) -> set[str]:
    return {s for a in parser._actions for s in a.option_strings}


def _command_lines(page: Path):
    """Each ``boardlab ...`` command line named in the page's code (continuations joined)."""
    _, blocks, spans = _split(page)
    texts = list(spans)
    for lang, block in blocks:
        if lang in ("", "sh", "bash", "shell", "console", "text"):
            texts.append(re.sub(r"\\\n\s*", " ", block))
    lines = []
    for text in texts:
        for line in text.splitlines():
            line = line.split(" #", 1)[0]
            for m in COMMAND.finditer(line):
                lines.append(m.group(1).split())
    return lines


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_every_boardlab_command_and_option_exists(page):
    commands = _subparsers()
    root = _options(_parser())
    games = None
    wrong = []
    for words in _command_lines(page):
        if not words:
            continue
        first = words[0]
        if first.startswith("-"):
            if first.split("=")[0] not in root:
                wrong.append(f"boardlab {first}")
            continue
        if PLACEHOLDER.search(first) or first.isupper():
            continue                              # boardlab <command>, boardlab COMMAND
        sub = commands.get(first)
        if sub is None:
            wrong.append(f"boardlab {first}: no such command")
            continue
        if len(words) > 1 and words[1] in _subparsers(sub):     # boardlab nets ship ...
            first, sub, words = f"{first} {words[1]}", _subparsers(sub)[words[1]], words[1:]
        options = _options(sub)
        for word in words[1:]:
            option = word.strip("[]").split("=")[0]
            if option.startswith("--") and option not in options:
                wrong.append(f"boardlab {first} {option}: no such option")
        game = words[1] if len(words) > 1 else ""
        if any(a.dest == "game" for a in sub._actions) and re.fullmatch(r"[a-z]+", game):
            if games is None:
                import boardlab
                games = set(boardlab.games_available())
            if game not in games:
                wrong.append(f"boardlab {first} {game}: no such game")
    assert not wrong, f"{_rel(page)}: {wrong}"


SCRIPT = re.compile(r"\bpython3? ((?:bench|scripts)/[\w/]+\.py)((?:[ \t]+[^\s&;#`]+)*)")


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_every_script_option_exists(page):
    """``python bench/x.py --option``: the script's source spells the option out."""
    _, blocks, spans = _split(page)
    texts = [*spans, *(re.sub(r"\\\n\s*", " ", b) for lang, b in blocks
                       if lang in ("", "sh", "bash", "shell", "console", "text"))]
    wrong = []
    for text in texts:
        for line in text.splitlines():
            for script, rest in SCRIPT.findall(line.split(" #", 1)[0]):
                source = ROOT / script
                if not source.is_file():
                    continue                          # the path check names it
                code = source.read_text(encoding="utf-8")
                for option in re.findall(r"(?<![\w-])--[a-z][\w-]*", rest):
                    if f'"{option}"' not in code and f"'{option}'" not in code:
                        wrong.append(f"{script} {option}")
    assert not wrong, f"{_rel(page)} names script options that do not exist: {wrong}"


def test_docs_cli_names_every_command_and_option():
    """docs/cli.md documents every command and every one of its options."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    missing = []
    commands = dict(_subparsers())
    for name, sub in list(commands.items()):           # and their own commands (nets ship)
        commands.update({f"{name} {n}": p for n, p in _subparsers(sub).items()})
    for name, sub in commands.items():
        if f"boardlab {name}" not in text:
            missing.append(f"boardlab {name}")
        for option in sorted(_options(sub) - {"-h", "--help"}):
            if option.startswith("--") and not re.search(
                    rf"`[^`]*{re.escape(option)}(?![\w-])", text):
                missing.append(f"boardlab {name} {option}")
    assert not missing, f"docs/cli.md does not document: {missing}"


EXAMPLES = [README, ROOT / "docs" / "python.md"]


@pytest.mark.parametrize("page", EXAMPLES, ids=_ids(EXAMPLES))
def test_the_first_python_example_runs(page, capsys):
    """The README's example and docs/python.md's API example run as printed."""
    _, blocks, _ = _split(page)
    code = next(b for lang, b in blocks if lang == "python")
    exec(compile(code, f"{_rel(page)} (first python block)", "exec"), {"__name__": "__doc__"})
    assert capsys.readouterr().out


def test_the_checks_see_what_they_should():
    """The extractors find real names (a check that matched nothing would pass for ever)."""
    paths = {p for page in PAGES for p in _paths(page)}
    assert {"tests/test_train.py", "streamlit_app/review.py"} <= paths
    lines = [w for page in PAGES for w in _command_lines(page)]
    assert {"play", "arena", "analyse", "train", "app"} <= {w[0] for w in lines if w}
    modules = {m for page in PAGES for m in _modules(page)}
    assert {"boardlab.search", "boardlab.interop.pettingzoo.env"} <= modules
