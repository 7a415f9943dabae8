"""The win-% graph grows while the whole-game review runs: each run of its fragment analyses a
few decisions and draws the points found so far, with the progress bar and the Stop button."""
import json

import pytest

pytest.importorskip("streamlit")
pytest.importorskip("plotly")

from boardlab.streamlit_app import review  # noqa: E402
from test_app import ANALYSE, app, finished_record  # noqa: E402


@pytest.fixture(autouse=True)
def one_decision_per_run(monkeypatch):
    """Each run of the review's fragment analyses one decision (not a time slice): the
    growth is then the same on every machine."""
    monkeypatch.setattr(review, "SLICE_SECONDS", 0.0)
    monkeypatch.setattr(review, "SLICE_PER_DRAW", 0.0)


def graph_points(at) -> list[int]:
    graphs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")
              if "win % of" in c.proto.spec]
    # the search's line (the traces after it mark moves; the network's reading is apart)
    lines = [t for g in graphs for t in g["data"][:1] if "network" not in t.get("name", "")]
    return sorted(lines[0]["x"]) if lines else []


def progress_texts(at) -> list[str]:
    return [p.proto.text for p in at.get("progress")]


def started_review():
    """The Analyse page with a Kitsu record uploaded and its review started (60 iterations)."""
    at = app()
    at.switch_page(ANALYSE).run()
    at.file_uploader(key="an_upload").upload("g.json", json.dumps(finished_record(seed=4)).encode(),
                                             "application/json").run()
    at.number_input(key="rv_iters").set_value(60).run()
    at.button(key="rv_start").click().run()
    assert not at.exception, at.exception
    return at


def test_the_graph_grows_while_the_review_runs():
    at = started_review()
    job = at.session_state["bl_analysis"]["review"]
    seen = []
    while not job.done:
        # mid-run: a partial graph of exactly the decisions analysed, the progress, Stop
        points = graph_points(at)
        assert points == sorted(job.rows), (points, sorted(job.rows))
        assert 0 < len(points) < len(job.plies)
        assert progress_texts(at) == [f"Analysed {len(job.rows)} of {len(job.todo)} decisions"]
        assert [b for b in at.button if b.key == "rv_stop"]
        seen.append(len(points))
        at.run()
        assert not at.exception, at.exception
    assert seen == list(range(1, len(job.plies)))       # one more point per run
    # the whole game, then its result at the end position
    assert graph_points(at) == list(range(len(job.plies) + 1))
    assert not progress_texts(at) and not [b for b in at.button if b.key == "rv_stop"]
    assert any("Reviewed at 60 iterations per decision" in c.value for c in at.caption)


def test_a_run_analyses_at_least_twice_as_long_as_the_last_drawing_took(monkeypatch):
    """The slice of a run follows the page's last drawing of the review (SLICE_PER_DRAW
    times it), so drawing cannot take most of a review's time."""
    monkeypatch.setattr(review, "SLICE_PER_DRAW", 2.0)
    at = started_review()
    job = at.session_state["bl_analysis"]["review"]
    asked, step = [], job.step
    monkeypatch.setattr(job, "step", lambda n, seconds: asked.append((seconds, job.draw_seconds))
                        or step(n, seconds=seconds))
    while not job.done:
        at.run()
        assert not at.exception, at.exception
    assert asked and all(d > 0 and s == 2 * d for s, d in asked), asked


def test_the_partial_graph_stays_after_stop():
    at = started_review()
    at.run()
    at.button(key="rv_stop").click().run()
    job = at.session_state["bl_analysis"]["review"]
    assert job.stopped and 0 < len(job.rows) < len(job.plies)
    assert graph_points(at) == sorted(job.rows)
    assert any("Stopped after" in c.value for c in at.caption)
