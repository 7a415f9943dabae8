"""Keyside's search heuristic in the solo game: a win probability that sees
progress toward the drawn beacons, not only points."""
from keyside_table import play, setv, table


def solo_start(beacons):
    s = table(1, beacons=beacons)
    play(s, "Keytoma's dice strip 1 light side")
    return s


def value(s, **goods):
    s = s.clone()
    for good, n in goods.items():
        setv(s, 0, "good", good, n)
    return s.evaluate()[0]


def test_solo_value_counts_progress_toward_the_drawn_beacon():
    # B3 (10 fish) drawn: 5 fish is half of it; 5 stone is the same goods count for no beacon.
    s = solo_start(("A2", "B3", "C1"))
    assert value(s, fish=5) > value(s, stone=5)
    # B6 (9 gems) drawn instead: now fish are just goods again.
    s = solo_start(("A2", "B6", "C1"))
    assert abs(value(s, fish=5) - value(s, stone=5)) < 1e-9
    assert value(s, emerald=3, ruby=2) > value(s, fish=5)


def test_solo_value_is_a_probability_not_pinned_at_a_loss():
    s = solo_start(("A2", "B3", "C1"))
    base, lit = value(s), value(s, fish=10)   # B3 lit
    assert -1 < base < lit < 1
    assert value(s, fish=10, sheep=12) > lit  # and points on top
