"""boardlab.arena: seat rotation, win accounting, determinism across processes."""
import json

import pytest

from boardlab.arena import play_match, sides_of, wilson_interval


def test_wilson_interval():
    lo, hi = wilson_interval(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-3) and hi == pytest.approx(0.7634, abs=1e-3)
    assert wilson_interval(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0, abs=1e-12)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(30, 100)
    assert lo < 0.3 < hi


def test_kitsu_sides():
    names, side = sides_of("kitsu", 6)
    assert names == ["Blue", "Orange"]
    assert side == [0, 1, 0, 1, 0, 1]


@pytest.mark.parametrize("players", [2, 4])
def test_rotation_and_win_counts(players):
    games = 4
    r = play_match("kitsu", {"players": players}, ["random", "greedy"], games=games, seed=3)
    assert len(r.outcomes) == games
    assert [o.index for o in r.outcomes] == list(range(games))
    # seat rotation: each agent played each clan, equally often with an even number of games
    for agent in range(2):
        assert r.side_counts(agent) == [games // 2, games // 2]
    for o in r.outcomes:
        assert sorted(o.side_of_agent) == [0, 1]
        assert o.decisions > 0 and o.actions >= o.decisions
        assert len(o.returns) == players
    assert sum(r.wins) == games - r.draws
    assert sum(r.side_wins()) == games - r.draws
    for o in r.outcomes:   # the winner's clan has the best return
        if o.winner is not None:
            clan = o.side_of_agent[o.winner]
            mine = [o.returns[s] for s in range(players) if s % 2 == clan]
            theirs = [o.returns[s] for s in range(players) if s % 2 != clan]
            assert min(mine) > max(theirs)
    for i in range(2):
        lo, hi = r.confidence_interval(i)
        assert 0.0 <= lo <= r.win_rate(i) <= hi <= 1.0
    json.dumps(r.to_dict())
    table = r.table()
    assert "0:random" in table and "1:greedy" in table and "95%" in table


def test_same_seed_same_match_and_jobs_agree():
    args = ("kitsu", {"players": 2}, ["random", "random"])
    a = play_match(*args, games=4, seed=11, jobs=1)
    b = play_match(*args, games=4, seed=11, jobs=1)
    c = play_match(*args, games=4, seed=11, jobs=2)
    assert a.to_dict() == b.to_dict() == c.to_dict()
    d = play_match(*args, games=4, seed=12, jobs=1)
    assert [o.seed for o in d.outcomes] != [o.seed for o in a.outcomes]


def test_local_workers_are_not_forked_from_this_process_and_a_dead_one_is_an_error():
    import os

    from boardlab.parallel import run_tasks
    # Forking this process would copy locks held by its other threads (Ray's, the app's)
    # into the workers, held forever; workers come from a clean server process instead.
    parents = dict(run_tasks(os.getppid, [(), ()], jobs=2))
    assert len(parents) == 2 and os.getpid() not in parents.values()
    with pytest.raises(RuntimeError, match="worker process .* died"):
        list(run_tasks(os.abort, [(), ()], jobs=2))


@pytest.mark.parametrize("jobs", [1, 2])
def test_what_every_task_shares_is_passed_first_and_none_is_a_value(jobs):
    """run_tasks(shared=...): fn(shared, *task) in this process and in worker processes
    (sent once to each, by the pool's initializer); None is passed like any value."""
    import operator

    from boardlab.parallel import run_tasks
    assert dict(run_tasks(operator.add, [("c",), ("d",)], jobs=jobs, shared="ab")) == \
        {0: "abc", 1: "abd"}
    assert dict(run_tasks(operator.is_, [(None,), (1,)], jobs=jobs, shared=None)) == \
        {0: True, 1: False}


def test_rotation_pairs_share_the_deal():
    r = play_match("kitsu", {"players": 2}, ["random", "random"], games=4, seed=5)
    seeds = [o.seed for o in r.outcomes]
    assert seeds[0] == seeds[1] and seeds[2] == seeds[3] and seeds[0] != seeds[2]


def test_progress_callback():
    seen = []
    play_match("kitsu", {"players": 2}, ["random", "random"], games=2, seed=0,
               progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 2), (2, 2)]


@pytest.mark.parametrize("kwargs, word", [
    (dict(agents_specs=["random"]), "agents"),
    (dict(agents_specs=["random", "random", "random"]), "agents"),
    (dict(games=0), "games"),
    (dict(jobs=0), "jobs"),
    (dict(params={"players": 5}), "players"),
])
def test_bad_arguments(kwargs, word):
    call = dict(game_name="kitsu", params={"players": 2}, agents_specs=["random", "random"],
                games=2, seed=0)
    call.update(kwargs)
    with pytest.raises(ValueError, match=word):
        play_match(**call)


def test_bad_agent_spec():
    with pytest.raises(ValueError):
        play_match("kitsu", {"players": 2}, ["random", "no-such-agent"], games=2, seed=0)
