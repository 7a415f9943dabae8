"""The app's first screens as a new player meets them (issue 54), through AppTest: the level
choice says why Master is missing and never changes a chosen level silently; "Since your
last move" is never an empty banner; an analysis reports the time it took; Save then Load
of a reviewed game keeps its review."""
import json
import re

import pytest

pytest.importorskip("streamlit")
pytest.importorskip("plotly")

import boardlab  # noqa: E402
from boardlab.nets import default_path  # noqa: E402
from test_app import app  # noqa: E402


# --- the level choice ------------------------------------------------------------------------
def texts(at) -> str:
    return "\n".join([c.value for c in at.caption] + [i.value for i in at.info]
                     + [m.value for m in at.markdown])


def test_master_missing_says_why_and_a_chosen_master_is_never_changed_silently():
    assert default_path(boardlab.make("kitsu", players=2)).is_file()
    assert default_path(boardlab.make("kyushu", players=3)) is None
    at = app()
    assert "Master" in at.radio(key="ng_preset").options          # Kitsu 2 players: it ships
    assert "needs a learned network" not in texts(at)
    at.radio(key="ng_preset").set_value("Master").run()
    at.selectbox(key="ng_game").set_value("kyushu").run()
    at.selectbox(key="ng_ky_players").set_value(3).run()
    assert not at.exception, at.exception
    level = at.radio(key="ng_preset")
    assert "Master" not in level.options
    assert level.value == "Expert"                    # the strongest here, not Casual
    notes = [i.value for i in at.info if "Master" in i.value]
    assert notes, "the change from Master is not said"
    assert "none ships yet for Kyūshū with 3 players" in notes[0]
    assert "**Expert**" in notes[0]
    at.selectbox(key="ng_game").set_value("kitsu").run()   # back where Master is offered
    assert at.radio(key="ng_preset").value == "Master"
    assert not [i for i in at.info if "Master" in i.value]


def test_without_a_chosen_master_the_level_choice_still_says_why_it_is_missing():
    at = app()
    at.selectbox(key="ng_game").set_value("kyushu").run()
    at.selectbox(key="ng_ky_players").set_value(3).run()
    level = at.radio(key="ng_preset")
    assert level.value == "Casual" and "Master" not in level.options
    caption = [c.value for c in at.caption if "Master" in c.value]
    assert caption and "none ships yet for Kyūshū with 3 players" in caption[0]
    assert "the strongest here is **Expert**" in caption[0]
    assert not [i for i in at.info if "Master" in i.value]       # nothing was changed
    at.radio(key="ng_preset").set_value("Strong").run()
    at.button(key="ng_start").click().run()
    assert not at.exception, at.exception
    assert at.session_state["bl_play"].preset == "Strong"


# --- the analysis' time ----------------------------------------------------------------------
def test_an_analysis_reports_the_time_its_search_took():
    """2,000 iterations of Kitsu take about a millisecond: two decimals of a second showed
    "in 0.00 s"."""
    from boardlab.streamlit_app.session import duration_text
    from test_app import finished_record
    from test_app_review import upload
    at = app()
    upload(at, finished_record(seed=4))
    at.button(key="an_first").click().run()            # a decision (the end has none)
    at.number_input(key="an_game_iters").set_value(2000).run()
    at.button(key="an_game_run").click().run()
    assert not at.exception, at.exception
    result = at.session_state["bl_analysis"]["an_game_result"][1]
    assert result.iterations == 2000
    line = [m.value for m in at.markdown if "iterations in" in m.value][0]
    shown = re.search(r"2,000 iterations in ([0-9.]+) (ms|s)\. ", line)
    assert shown, line
    seconds = float(shown[1]) / (1000 if shown[2] == "ms" else 1)
    assert seconds > 0 and seconds == pytest.approx(result.seconds, rel=0.06, abs=5e-5)
    chart = [json.loads(c.proto.spec) for c in at.get("plotly_chart")
             if "Visits per move" in c.proto.spec][0]
    assert chart["layout"]["title"]["text"].endswith(f"{duration_text(result.seconds)})")
    assert [duration_text(x) for x in (0.00098, 0.0236, 0.5, 1.234)] == \
        ["1.0 ms", "24 ms", "0.50 s", "1.23 s"]


# --- "Since your last move" ------------------------------------------------------------------
def own_trick_endings(seed=5, wanted=2):
    """Kitsu 2 players, P0 human playing its first legal choice: the sessions (copies) at P0's
    decisions right after its own card ended a trick, one with only chance (a deal) since,
    one with nothing at all since."""
    from boardlab.streamlit_app.common import changes_since
    from boardlab.streamlit_app.session import AI, HUMAN, PlaySession
    sess = PlaySession(game=boardlab.make("kitsu", players=2), seats=[HUMAN, AI],
                       preset="Beginner", seed=seed)
    found = {}
    while not sess.state.is_terminal() and len(found) < wanted:
        if sess.is_human_turn():
            start, since = sess.last_decision(0)
            changes = changes_since(sess, 0)
            if since and not changes.lines and changes.outcome:
                kind = "chance" if changes.moves else "nothing"
                found.setdefault(kind, sess.copy())
            sess.apply_human(int(sess.state.legal_actions()[0]))
        else:
            sess.play_ai()
    assert set(found) == {"chance", "nothing"}, found.keys()
    return found


def strip_of(at) -> list[str]:
    """The "since your last move" strip's lines as shown, and [] for the hidden one."""
    shown = [m.value for m in at.markdown if "Since your last move" in m.value]
    assert len(shown) == 1, shown
    if "bl-ch-none" in shown[0]:
        return []
    return re.findall(r"<li>(.*?)</li>", shown[0])


def test_since_your_last_move_names_the_trick_your_own_card_ended():
    """A human's card ends a trick; then only a deal (chance) or nothing at all happens
    before its next decision. The strip was empty (the deal) or hidden (nothing), though
    the trick was resolved: it names the trick's result."""
    import html

    from boardlab.streamlit_app.common import log_lines
    for kind, sess in own_trick_endings().items():
        at = app()
        at.file_uploader(key="ng_upload").upload(f"{kind}.json", sess.record_json().encode(),
                                                 "application/json").run()
        assert not at.exception, at.exception
        lines = [html.unescape(x) for x in strip_of(at)]
        assert lines and lines[0].startswith("Trick: ") and " → " in lines[0], (kind, lines)
        start, since = sess.last_decision(0)
        assert lines == [ln.raw for ln in log_lines(sess.state, 0)      # as the log says it
                         if ln.kind == "event" and start <= ln.ply < since]


def test_no_strip_when_nothing_at_all_happened_and_tables_read_the_same():
    """Kyūshū: P0 decides twice in a row (nothing happens between): no strip, and no empty
    one. A table's strip reads what its seat's own decision led to as the screen's does."""
    from boardlab.streamlit_app.common import changes_since
    from boardlab.streamlit_app.friends.story import Story, StoryLine
    from boardlab.streamlit_app.session import AI, HUMAN, PlaySession
    sess = PlaySession(game=boardlab.make("kyushu", players=2), seats=[HUMAN, AI],
                       preset="Beginner", seed=5)
    while not (sess.is_human_turn() and sess.since_last_decision(0)
               and not changes_since(sess, 0).strip()):
        sess.apply_human(int(sess.state.legal_actions()[0])) if sess.is_human_turn() \
            else sess.play_ai()
    at = app()
    at.file_uploader(key="ng_upload").upload("again.json", sess.record_json().encode(),
                                             "application/json").run()
    assert not at.exception, at.exception
    assert at.session_state["bl_play"].ply == sess.ply
    assert strip_of(at) == []
    lines = (StoryLine(17, "9. P0 plays Blue 3", "move", "P0 plays Blue 3"),
             StoryLine(17, "   • Trick: P1 O4, P0 B3 → Orange +1", "event",
                       "Trick: P1 O4, P0 B3 → Orange +1"),
             StoryLine(18, "── Round 2 ──", "section", "Round 2"))
    changes = Story(0, lines, 18, 18, None, 17).changes()
    assert not changes and changes.strip() == ["Trick: P1 O4, P0 B3 → Orange +1"]


# --- a reviewed game's record carries its review ------------------------------------------------
def reviewed_record():
    """A finished Kitsu game loaded on Play, reviewed on Analyse, then saved: (its record as
    Download gives it, the review)."""
    from test_app import ANALYSE, PLAY, finished_record
    from test_app_review import run_review
    at = app()
    at.file_uploader(key="ng_upload").upload("done.json", json.dumps(finished_record(seed=4))
                                             .encode(), "application/json").run()
    at.switch_page(ANALYSE).run()
    job = run_review(at)
    at.run()
    assert job.done and not at.exception
    at.switch_page(PLAY).run()
    at.button(key="play_save").click().run()
    assert not at.exception, at.exception
    assert any(b.key == "play_download" for b in at.get("download_button"))
    return json.loads(at.session_state["bl_play"].record_json()), job


def no_search(monkeypatch):
    from boardlab import search

    def refuse(*a, **k):
        raise AssertionError("a review carried by its record is searched again")
    monkeypatch.setattr(search, "ismcts", refuse)


def graph_and_table(at):
    from test_app_review import frame
    graph = [c.proto.spec for c in at.get("plotly_chart") if "win % of" in c.proto.spec]
    return graph, len(frame(at, "flag"))


def test_save_then_load_of_a_reviewed_game_keeps_its_review(monkeypatch):
    """Play's record of a reviewed game carries the review (versioned, JSON without NaN);
    loading it on Play in another browser shows the graph and the table on Analyse without
    searching again, and so does uploading it on Analyse."""
    from test_app import ANALYSE
    from test_app_review import upload
    record, job = reviewed_record()
    review = record["app"]["review"]
    assert review["version"] == 1 and review["budget"] == job.budget
    assert review["seats"] is None and review["observer"] == job.observer
    assert [r["decision"] for r in review["rows"]] == sorted(job.rows)
    text = json.dumps(record, allow_nan=False)           # standard JSON: NaN written null
    no_search(monkeypatch)
    other = app()                                         # another browser
    other.file_uploader(key="ng_upload").upload("reviewed.json", text.encode(),
                                                "application/json").run()
    assert not other.exception, other.exception
    assert other.session_state["bl_play"].review is not None
    assert not [w for w in other.warning if "review" in w.value]
    other.switch_page(ANALYSE).run()
    assert not other.exception, other.exception
    kept = other.session_state["bl_analysis"]["review"]
    assert kept.done and kept.budget == job.budget and sorted(kept.rows) == sorted(job.rows)
    for d, row in job.rows.items():
        assert {k: v for k, v in kept.rows[d].items() if v == v} == \
            {k: v for k, v in row.items() if v == v}             # (NaN aside) the same rows
    graph, table = graph_and_table(other)
    assert graph and table == len(job.rows)
    assert kept.saved              # a finished game's: now kept with it in the store too
    third = app()                  # the Analyse page's own upload reads it as well
    upload(third, record)
    assert third.session_state["bl_analysis"]["review"].done
    assert graph_and_table(third)[1] == len(job.rows)


def test_a_record_with_a_malformed_review_loads_without_it_and_says_why(monkeypatch):
    from test_app import ANALYSE
    from test_app_review import upload
    record, job = reviewed_record()
    record["app"]["review"]["rows"][2]["ply"] += 1
    at = app()
    at.file_uploader(key="ng_upload").upload("bad.json", json.dumps(record).encode(),
                                             "application/json").run()
    assert not at.exception, at.exception
    assert at.session_state["bl_play"].review is None
    said = [w.value for w in at.warning if "review" in w.value]
    assert said and "without its review" in said[0] and "rows[2]" in said[0], said
    at.switch_page(ANALYSE).run()
    assert at.session_state["bl_analysis"].get("review") is None
    other = app()
    upload(other, record)
    said = [w.value for w in other.warning if "review" in w.value]
    assert said and "left out" in said[0] and "rows[2]" in said[0], said
    assert other.session_state["bl_analysis"].get("review") is None
    del record["app"]["review"]                        # a record without one: as before
    plain = app()
    plain.file_uploader(key="ng_upload").upload("plain.json", json.dumps(record).encode(),
                                                "application/json").run()
    assert not plain.exception and not [w for w in plain.warning if "review" in w.value]
    assert plain.session_state["bl_play"].review is None


def test_a_malformed_review_is_refused_naming_what_is_wrong():
    from boardlab.streamlit_app.review import Review, review_data, review_from_data
    from test_app import finished_record
    base = boardlab.replay(finished_record(seed=4))
    job = Review(base.clone(), {"iterations": 60}, seed=3)
    job.step(4)
    good = review_data(job)
    assert review_from_data(json.loads(json.dumps(good)), base).stopped    # part way: stopped

    def refused(change, words):
        data = json.loads(json.dumps(good))
        change(data)
        with pytest.raises(ValueError, match=words):
            review_from_data(data, base)

    refused(lambda d: d.update(version=2), "version 2")
    refused(lambda d: d.pop("rows"), "lacks 'rows'")
    refused(lambda d: d.update(budget={"iterations": "many"}), "'budget'")
    refused(lambda d: d.update(seats=[0, 7]), "'seats'")
    refused(lambda d: d.update(observer=-1), "'observer'")
    refused(lambda d: d["rows"][1].pop("label"), r"rows\[1\] lacks 'label'")
    refused(lambda d: d["rows"][1].update(win_pct="high"), r"rows\[1\] 'win_pct' must be a number")
    refused(lambda d: d["rows"][1].update(label="brilliant"), "'label' must be one of")
    refused(lambda d: d["rows"][1].update(decision=d["rows"][0]["decision"]), "reviewed twice")
    refused(lambda d: d["rows"][0].update(decision=999), "not one of this game's")
    refused(lambda d: d["rows"][0].update(played_action=d["rows"][0]["played_action"] + 1),
            "the move played")
    refused(lambda d: d["rows"][0].update(ai_action=10**6), "not legal there")
    other = boardlab.replay(finished_record(seed=5))
    with pytest.raises(ValueError, match="decision|move played"):
        review_from_data(good, other)                   # a review of another game
    with pytest.raises(ValueError, match="must be an object"):
        review_from_data([], base)
