"""Inference from play (Kitsu 2p, ``ismcts(infer=N)``): worlds weighted by how likely the
opponent's card plays were in them. It must read only what the searching seat saw."""
import itertools

import pytest

import boardlab
from boardlab import _search, agents, search
from boardlab.games import kitsu_inference
from boardlab.search import core_of

KA_DEAL = 79
SEAT = 0


def played_game(seed=3, moves=30):
    """A Kitsu 2p game after ``moves`` decisions of low-budget ISMCTS self-play."""
    st = boardlab.make("kitsu", players=2).new_initial_state(seed=seed)
    players = [agents.make_agent("ismcts:200", seed=s) for s in (1, 2)]
    done = 0
    while done < moves and not st.is_terminal():
        p = st.current_player
        if p == boardlab.CHANCE:
            st.apply(int(st.chance_outcomes()[0][0]))
            continue
        st.apply(int(players[p].step(st)))
        done += 1
    return st


def twin(state, seat):
    """Another real game `seat` cannot tell from ``state``: one card dealt to the other seat
    (and never played) replaced by a card of another type that `seat` never saw. Replayed
    with legality checks, so it is a game that could have happened."""
    history = state.history
    observed = state.observed_history(seat)
    hidden = [i for i, (a, o) in enumerate(zip(history, observed))
              if o == boardlab.HIDDEN and a >= KA_DEAL]
    game = state.game
    for i, new_type in itertools.product(reversed(hidden), range(15)):
        if KA_DEAL + new_type == history[i]:
            continue
        other = game.new_initial_state(seed=game.seed)
        try:
            for k, a in enumerate(history):
                other.apply(KA_DEAL + new_type if k == i else a)
        except (boardlab.IllegalActionError, ValueError):
            continue
        if other.observed_history(seat) == observed and other.current_player == \
                state.current_player and other.full_observation() != state.full_observation():
            return other
    raise AssertionError("no twin game found")


def at_seat(seat, seed=3):
    st = played_game(seed)
    while st.current_player != seat:        # a decision of `seat`, after opponent plays
        p = st.current_player
        st.apply(int(st.chance_outcomes()[0][0]) if p == boardlab.CHANCE
                 else int(st.legal_actions()[0]))
    return st


def test_twin_games_give_the_same_worlds_and_search():
    """Two games the seat cannot tell apart (the opponent holds a different card) give the
    same weighted worlds and the same search: the inference reads no hidden card."""
    state = at_seat(SEAT)
    other = twin(state, SEAT)
    assert other.observation(SEAT) == state.observation(SEAT)
    a = search.inferred_worlds(state, SEAT, 24, seed=9)
    b = search.inferred_worlds(other, SEAT, 24, seed=9)
    assert [(w.to_bytes(), x) for w, x in a] == [(w.to_bytes(), x) for w, x in b]
    kw = dict(iterations=1500, seed=4, infer=24)
    ra, rb = search.ismcts(state, **kw), search.ismcts(other, **kw)
    assert [(s["action"], s["visits"], s["mean"]) for s in ra.stats] == \
        [(s["action"], s["visits"], s["mean"]) for s in rb.stats]


def test_the_weights_follow_the_opponents_plays():
    """With opponent plays in the deal the worlds are not all equally likely; the weights
    are finite, positive and at most 1 (the likeliest world has weight 1)."""
    state = at_seat(SEAT)
    weights = [x for _, x in search.inferred_worlds(state, SEAT, 48, seed=1)]
    assert max(weights) == 1.0 and min(weights) > 0.0
    assert len(set(weights)) > 1
    # The true hands are one of the worlds the seat could be in: the world weighted by the
    # true opponent hand is possible (its plays were legal with it).
    worlds = search.inferred_worlds(state, SEAT, 8, seed=2)
    for w, _ in worlds:
        assert w.current_player() == SEAT


def test_worlds_are_drawn_by_weight():
    """A world of weight 0 is never searched: [A, B] weighted [1, 0] searches exactly as
    [A] alone; and the C search refuses bad weights."""
    state = at_seat(SEAT)
    core = core_of(state)
    a, b = core.determinize(SEAT, 1), core.determinize(SEAT, 2)

    def run(worlds, weights):
        t = _search.ISMCTSTree(core, SEAT, 0.7, 0, 5, 0, 0.0, False)
        t.set_worlds(worlds, weights)
        t.run(600)
        return t.root_stats()

    assert run([a, b], [1.0, 0.0]) == run([a], [3.0])
    assert run([a, b], [0.0, 1.0]) == run([b], [1.0])
    assert run([a, b], [1.0, 0.0]) != run([b], [1.0])
    t = _search.ISMCTSTree(core, SEAT, 0.7, 0, 5, 0, 0.0, False)
    for weights in ([0.0, 0.0], [1.0, -1.0], [float("inf"), 1.0], [float("nan"), 1.0]):
        with pytest.raises(ValueError, match="worlds"):
            t.set_worlds([a, b], weights)
    with pytest.raises(ValueError, match="one weight per state"):
        t.set_worlds([a, b], [1.0])
    open_tree = _search.ISMCTSTree(core, SEAT, 0.7, 0, 5, 0, 0.0, True)
    with pytest.raises(ValueError, match="open_hands"):
        open_tree.set_worlds([a], [1.0])
    t.run(1)
    with pytest.raises(ValueError, match="before the first iteration"):
        t.set_worlds([a], [1.0])


def test_infer_is_refused_where_it_does_not_apply():
    state = at_seat(SEAT)
    with pytest.raises(ValueError, match="infer"):
        search.ismcts(state, iterations=10, infer=4, open_hands=True)
    with pytest.raises(ValueError, match="infer"):
        search.ismcts(state, iterations=10, infer=-1)
    with pytest.raises(ValueError, match="determinization"):
        search.ismcts(state.determinize(SEAT, 1), iterations=10, infer=4)
    four = boardlab.make("kitsu", players=4).new_initial_state(seed=1)
    while four.current_player == boardlab.CHANCE:
        four.apply(int(four.chance_outcomes()[0][0]))
    with pytest.raises(ValueError, match="Kitsu with 2 players"):
        search.ismcts(four, iterations=10, infer=4)
    with pytest.raises(ValueError, match="open-hands"):
        agents.make_agent("cheat:100:infer=4", allow_open_hands=True)
    agent = agents.make_agent("ismcts:300:infer=8", seed=3)
    assert agent.infer == 8 and agent.name == "ismcts:300:infer=8"
    assert agent.step(state) in set(int(a) for a in state.legal_actions())


def test_set_hand_takes_only_unseen_cards():
    """kitsu_set_hand moves cards between the hand and the stock only, and refuses counts
    that are not there (the world is then unchanged)."""
    from boardlab import _kitsu_infer
    state = at_seat(SEAT)
    world = core_of(state).determinize(SEAT, 5)
    hand, _ = _kitsu_infer.world_hand(world, 1)
    before = world.to_bytes()
    too_many = list(hand)
    too_many[0] += sum(hand) + 1
    assert not _kitsu_infer.set_hand(world, 1, too_many)
    assert world.to_bytes() == before
    assert _kitsu_infer.set_hand(world, 1, hand)        # the same hand: a valid no-op
    assert _kitsu_infer.world_hand(world, 1)[0] == hand
    with pytest.raises(ValueError):
        _kitsu_infer.set_hand(world, 1, hand[:3])
    assert kitsu_inference._played_type(17) == 2 and kitsu_inference._played_type(40) is None
