"""The boardlab command line, driven through subprocesses with piped input."""
import os
import re
import subprocess
import sys

import pytest

import boardlab


def run_cli(*args, stdin=""):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.run([sys.executable, "-m", "boardlab", *args], input=stdin,
                          capture_output=True, text=True, env=env)


def _turn_blocks(out):
    """The text shown before each of the human's decisions."""
    blocks = out.split("===== Your turn")[1:]
    return [b.split("Legal moves:")[0] for b in blocks]


@pytest.mark.parametrize("players", [2, 4])
def test_play_whole_game_always_first_move(players):
    r = run_cli("play", "kitsu", "--players", str(players), "--ai", "random", "--seed", "5",
                stdin="1\n" * 5000)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    out = r.stdout
    assert "Game over." in out
    assert ("You win!" in out) or ("You lose." in out) or ("draw" in out)
    blocks = _turn_blocks(out)
    assert blocks, out[:2000]
    assert all("Your move" not in b for b in blocks)
    # every move by anyone is echoed
    assert "> P0 " in out and "> P1 " in out


def test_play_shows_only_the_human_view():
    """Before each decision the CLI draws exactly the human seat's observation."""
    from boardlab.games import kitsu as kitsu_module
    seed, seat = 9, 1
    r = run_cli("play", "kitsu", "--players", "4", "--seat", str(seat), "--ai", "random",
                "--seed", str(seed), stdin="1\n" * 5000)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    # Replay the same session in-process: same chance stream, same seeded agents, human
    # always choosing the first legal move; compare what is shown at each decision.
    import random

    from boardlab.arena import _build_agent, _mix, _sample_chance
    game = boardlab.make("kitsu", players=4, seed=seed)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    ai = {s: _build_agent("random", _mix(seed, s, 0xA1)) for s in range(4) if s != seat}
    shown, hidden_views, full_lines = [], [], []
    others = tuple(f"P{o} " for o in range(4) if o != seat)
    while not state.is_terminal():
        p = state.current_player
        if p == boardlab.CHANCE:
            state.apply(_sample_chance(state, rng))
            continue
        if p == seat:
            shown.append(kitsu_module.render(state.observation(seat)))
            hidden_views.extend(kitsu_module.render(state.observation(o))
                                for o in range(4) if o != seat)
            # the lines an all-seeing onlooker gets for the other seats (their hands)
            own = set(shown[-1].splitlines())
            full_lines.append([ln for ln in kitsu_module.render(state.full_observation())
                               .splitlines() if ln.strip().startswith(others)
                               and ln not in own])
            a = int(state.legal_actions()[0])
        else:
            a = int(ai[p].step(state))
        state.apply(a)
    blocks = _turn_blocks(out)
    assert len(blocks) == len(shown)
    for block, view, secret in zip(blocks, shown, full_lines):
        assert view in block
        for line in secret:
            assert line not in block
    # the other seats' own views (with their hands) never appear whole
    for view in hidden_views:
        if view not in shown:
            assert view not in out


def test_play_hides_other_exchanges():
    r = run_cli("play", "kitsu", "--players", "4", "--ai", "random", "--seed", "2",
                stdin="1\n" * 5000)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    for other in (1, 2, 3):
        assert f"> P{other} exchanges a card" in out


def test_play_help_hint_bad_input_and_quit():
    r = run_cli("play", "kitsu", "--players", "2", "--ai", "random", "--seed", "1",
                stdin="help\nhint\n0\n999\nnot-a-move\n\nquit\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "hint" in out and "quit" in out                 # help text
    assert "AI suggests" in out or "no hint" in out
    assert "No move number 0" in out and "No move number 999" in out
    assert "Not a move: 'not-a-move'" in out
    assert "You left the game." in out
    assert "Traceback" not in r.stderr


def test_play_eof_exits_cleanly():
    r = run_cli("play", "kitsu", "--players", "2", "--ai", "random", "--seed", "1", stdin="")
    assert r.returncode == 0
    assert "End of input" in r.stdout
    assert "Traceback" not in r.stderr


def test_play_accepts_notation():
    # the first listed move, typed as its notation
    r = run_cli("play", "kitsu", "--players", "2", "--ai", "random", "--seed", "4",
                stdin="quit\n")
    listing = r.stdout.split("Legal moves:")[1].split("Your move")[0]
    first = re.split(r"\s{2,}|\n", listing.split("1) ", 1)[1])[0].strip()
    assert first
    r = run_cli("play", "kitsu", "--players", "2", "--ai", "random", "--seed", "4",
                stdin=f"{first}\nquit\n")
    assert r.returncode == 0, r.stderr
    assert f"> P0 {first}" in r.stdout


@pytest.mark.parametrize("args, word", [
    (["play", "nosuchgame"], "unknown game"),
    (["play", "kitsu", "--players", "3"], "players"),
    (["play", "kitsu", "--players", "2", "--seat", "2"], "seat"),
    (["play", "kitsu", "--players", "two"], "invalid int"),
    (["play", "kitsu", "--ai", "nonsense"], "agent"),
    (["arena", "kitsu", "--agents", "random"], "agents"),
    (["arena", "kitsu", "--players", "2"], "--agents"),
    (["arena", "kitsu", "--agents", "random", "random", "--games", "0"], "games"),
    (["arena", "nosuchgame", "--agents", "random", "random"], "unknown game"),
    (["bogus-command"], "invalid choice"),
    (["play", "kitsu", "--no-such-option"], "unrecognized"),
    ([], "required"),
])
def test_bad_options_exit_2(args, word):
    r = run_cli(*args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert word in r.stderr
    assert "Traceback" not in r.stderr


def test_arena_prints_win_rates_and_jobs_agree():
    common = ["arena", "kitsu", "--players", "2", "--agents", "random", "greedy",
              "--games", "4", "--seed", "7"]
    r1 = run_cli(*common, "--jobs", "1")
    r2 = run_cli(*common, "--jobs", "2")
    assert r1.returncode == 0, r1.stderr
    assert r2.returncode == 0, r2.stderr
    assert "win rate" in r1.stdout and "95% CI" in r1.stdout and "as Blue" in r1.stdout
    assert "0:random" in r1.stdout and "1:greedy" in r1.stdout
    assert "average game length" in r1.stdout
    assert r1.stdout == r2.stdout


def test_arena_json():
    import json
    r = run_cli("arena", "kitsu", "--players", "4", "--agents", "random", "random",
                "--games", "2", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert sum(d["wins"]) + d["draws"] == 2 and len(d["outcomes"]) == 2


def test_arena_wrong_number_of_agents_names_the_count_and_the_fix():
    r = run_cli("arena", "keyside", "--agents", "greedy", "random")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "keyside with 4 players needs 4 agents" in r.stderr
    assert "4 players is keyside's default; choose the count with --players" in r.stderr
    r = run_cli("arena", "keyside", "--players", "3", "--agents", "greedy", "random")
    assert r.returncode == 2 and "needs 3 agents" in r.stderr and "default" not in r.stderr


def test_version_help_text_and_seat_wording():
    r = run_cli("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"boardlab {boardlab.__version__}"
    r = run_cli("arena", "--help")
    assert r.returncode == 0 and "95%%" not in r.stdout and "95% Wilson" in r.stdout
    r = run_cli("play", "kyushu", "--players", "2", "--ai", "random", "--seed", "1", stdin="quit\n")
    assert "You are P0;" in r.stdout and "P0 (P0)" not in r.stdout
    r = run_cli("play", "kitsu", "--players", "2", "--ai", "random", "--seed", "1", stdin="quit\n")
    assert "You are P0 (Blue)" in r.stdout


def test_the_shipped_network_plays_in_the_arena_its_ladder_and_the_play_command():
    """net=default works wherever an agent spec does; a configuration without a network is
    refused up front with the reason (no traceback)."""
    import json
    r = run_cli("arena", "keyside", "--players", "2", "--agents", "ismcts:30:net=default",
                "ismcts:30", "--games", "2", "--seed", "3", "--json")
    assert r.returncode == 0, r.stderr
    assert sum(json.loads(r.stdout)["wins"]) + json.loads(r.stdout)["draws"] == 2
    r = run_cli("arena", "kyushu", "--players", "2", "--ladder", "--agents", "ismcts:30",
                "ismcts:30:net=default", "--games", "2", "--plot", "none")
    assert r.returncode == 0, r.stderr
    assert "ismcts:30:net=default" in r.stdout and "Elo" in r.stdout
    r = run_cli("play", "kitsu", "--players", "2", "--ai", "ismcts:30:net=default", "--seed", "2",
                stdin="1\n" * 400)
    assert r.returncode == 0, r.stderr
    assert "Game over." in r.stdout
    for args in (("arena", "kitsu", "--players", "6", "--agents", "ismcts:30:net=default",
                  "ismcts:30", "--games", "2"),
                 ("arena", "kitsu", "--players", "6", "--ladder", "--agents", "ismcts:30",
                  "ismcts:30:net=default", "--games", "2"),
                 ("play", "kitsu", "--players", "6", "--ai", "ismcts:30:net=default")):
        r = run_cli(*args)
        assert r.returncode == 2 and "Traceback" not in r.stderr, (args, r.stderr)
        assert "agent 'ismcts:30:net=default': net=default: no network ships for kitsu with " \
               "players=6" in r.stderr, (args, r.stderr)
