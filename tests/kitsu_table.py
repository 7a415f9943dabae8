"""Set a Kitsu table exactly as a scenario needs it, through explicit chance actions."""
import boardlab
from moves import names, play  # noqa: F401  (re-exported for the scenario tests)


def table(players, hands, leader=0, track_length=15, gives=None):
    """Deal `hands` (seat -> list of card names, the whole hand) from a fresh game.

    Cards go round the table from the leader, as the kernel deals. In 4p/6p the
    exchange follows: `gives` maps seat -> card name (default: the last card listed).
    """
    game = boardlab.make("kitsu", players=players, track_length=track_length)
    s = game.new_initial_state()
    s.apply_string(f"first leader P{leader}")
    per = 5 if players == 6 else 6
    taken = [0] * players
    for i in range(players * per):
        seat = (leader + i) % players
        s.apply_string(f"deal {hands[seat][taken[seat]]} to P{seat}")
        taken[seat] += 1
    if players > 2:
        gives = gives or {seat: hands[seat][-1] for seat in range(players)}
        for i in range(players):
            seat = (leader + i) % players
            assert s.current_player == seat
            s.apply_string(f"give {gives[seat]}")
    return s


def hand(s, seat):
    return sorted(s.full_observation()["hands"][seat])
