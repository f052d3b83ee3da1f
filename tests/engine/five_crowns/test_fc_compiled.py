"""The compiled solver (``_meldcore``) gives the pure-Python solver's answers, and the
engine falls back to the Python one when the compiled module is absent."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import JOKER, Card
from engine.five_crowns import meld_search, melds, swaps
from engine.five_crowns.compiled import PURE_PYTHON, core
from engine.five_crowns.deck import full_deck
from engine.five_crowns.melds import _components, _split

ROOT = Path(__file__).resolve().parents[3]
TWO_PACKS = full_deck(2)  # twins and twelve jokers: every count the solver meets

compiled = pytest.mark.skipif(core is None, reason="the compiled solver is not built here")


@contextmanager
def pure_python() -> Iterator[None]:
    """Every solve in Python (the reference), its caches emptied so nothing compiled leaks in."""
    saved, saved_plan = meld_search._best, melds._plan
    for module in (meld_search, melds, swaps):
        module._best = meld_search._search  # type: ignore[attr-defined]
    melds._plan = melds._plan_search
    melds.clear_cache()
    try:
        yield
    finally:
        for module in (meld_search, melds, swaps):
            module._best = saved  # type: ignore[attr-defined]
        melds._plan = saved_plan
        melds.clear_cache()


@st.composite
def deals(draw: st.DrawFn) -> tuple[list[Card], list[Card], int]:
    """(hand of 3..13 cards, or one more as after a draw; cards the stock may bring; the
    wild rank), from two packs without repeats."""
    picked = draw(st.permutations(range(len(TWO_PACKS))))
    size = draw(st.integers(3, 14))
    cards = [TWO_PACKS[index] for index in picked[: size + draw(st.integers(1, 40))]]
    return cards[:size], cards[size:], draw(st.integers(3, 13))


@st.composite
def crowded(draw: st.DrawFn) -> tuple[list[Card], int]:
    """(hand, wild rank) of few suits and ranks, each card up to four times (two packs),
    and jokers: twins, books and runs that overlap, where ties between melds abound."""
    suits = draw(st.lists(st.sampled_from("HDCST"), min_size=1, max_size=5, unique=True))
    ranks = draw(st.lists(st.integers(3, 13), min_size=1, max_size=5, unique=True))
    pool = [Card(rank, suit) for rank in ranks for suit in suits for _ in range(4)]
    pool += [JOKER] * draw(st.integers(0, 6))
    picked = draw(st.permutations(pool))
    return picked[: draw(st.integers(1, 16))], draw(st.integers(3, 13))


@compiled
@settings(max_examples=400, deadline=None)
@given(deals().map(lambda deal: (deal[0], deal[2])) | crowded())
def test_the_compiled_plan_lays_the_hand_out_as_the_python_one(
    deal: tuple[list[Card], int],
) -> None:
    """The same melds in the same order: which of equally good melds is chosen shows."""
    assert core is not None
    hand, wild_rank = deal
    naturals, wilds = _split(hand, wild_rank)
    planned = core.plan(naturals, len(wilds))
    arranged = melds.best_arrangement(hand, wild_rank)
    with pure_python():
        assert planned == melds._plan_search(naturals, len(wilds))
        assert arranged == melds.best_arrangement(hand, wild_rank)


@compiled
@settings(max_examples=400, deadline=None)
@given(deals(), st.data())
def test_the_compiled_solver_answers_as_the_python_one(
    deal: tuple[list[Card], list[Card], int], data: st.DataObject
) -> None:
    assert core is not None
    hand, stock, wild_rank = deal
    fast = core.Solver(hand, wild_rank)
    drawn = data.draw(st.lists(st.sampled_from(stock), min_size=1, max_size=6, unique=True))
    choices = data.draw(st.lists(st.sampled_from(hand), min_size=1, unique=True))
    banned = [data.draw(st.sampled_from([None, *hand])) for _ in drawn]
    bounds = [data.draw(st.none() | st.integers(-3, 90)) for _ in drawn]
    with pure_python():
        naturals, wilds = _split(hand, wild_rank)
        for group in _components(naturals, len(wilds)):
            assert core.best(*group, len(wilds)) == meld_search._search(*group, len(wilds))
        assert core.min_penalty(hand, wild_rank) == melds.min_penalty(hand, wild_rank)
        plain = swaps.SwapSolver(hand, wild_rank)
        assert (fast.keep, fast.wilds, fast.wild_penalty) == (
            plain.keep,
            plain.wilds,
            plain.wild_penalty,
        )
        assert fast.hand == hand
        for card in dict.fromkeys(hand):
            assert fast.penalty_less(card) == plain.penalty_less(card)
        assert fast.after_discard(banned[0], bounds[0]) == plain.after_discard(banned[0], bounds[0])
        assert fast.best_discard(choices) == plain.best_discard(choices)
        assert fast.ways_out() == plain.ways_out()
        assert fast.after_swap_apart() == plain.after_swap_apart()
        assert fast.near_slots() == plain.near_slots()
        assert fast.suit_near_slots() == plain.suit_near_slots()
        for card, thrown_back, bound in zip(drawn, banned, bounds, strict=True):
            assert fast.whole_after(card) == plain.whole_after(card)
            assert fast.after_swap(card, thrown_back, bound) == plain.after_swap(
                card, thrown_back, bound
            )
            assert fast.after_swap(card, card) == plain.after_swap(card, card)
            assert fast.may_meld(card) == plain.may_meld(card)
        unseen = Counter(stock)
        taking = data.draw(st.integers(0, plain.keep + 1))
        assert fast.draw_at_most(unseen, taking) == plain.draw_at_most(unseen, taking)


@compiled
@settings(max_examples=200, deadline=None)
@given(deals())
def test_a_draw_is_priced_exactly_at_its_threshold(deal: tuple) -> None:
    """The bounds decide only what the plain sum would: just below and at the mean."""
    assert core is not None
    hand, stock, wild_rank = deal
    unseen = Counter(stock)
    fast = core.Solver(hand, wild_rank)
    with pure_python():
        total = sum(
            copies * swaps.SwapSolver(hand, wild_rank).after_swap(card)
            for card, copies in unseen.items()
        )
    cards = sum(unseen.values())
    for taking in {total // cards - 1, total // cards, -(-total // cards)}:
        assert fast.draw_at_most(unseen, taking) == (total <= taking * cards)


@compiled
def test_the_compiled_solver_refuses_what_is_not_a_card() -> None:
    assert core is not None
    with pytest.raises(ValueError):
        core.Solver([Card(2, "H")], 5)  # no 2s in Five Crowns
    solver = core.Solver([Card(4, "H"), Card(5, "H")], 7)
    with pytest.raises(ValueError):
        solver.penalty_less(Card(9, "S"))  # not in the hand
    with pytest.raises(ValueError):
        solver.best_discard([])
    with pytest.raises(TypeError):
        solver.__init__([Card(4, "H"), "4H"], 7)  # type: ignore[misc, list-item]
    assert (solver.hand, solver.keep) == ([], 0)  # a failed read leaves no cards
    assert core.Solver.__new__(core.Solver).hand == []


def test_the_compiled_solver_is_built_where_a_compiler_is() -> None:
    """``pip install`` builds it optionally: a failed build must not pass unnoticed."""
    if os.environ.get(PURE_PYTHON) or not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("no C compiler (or the pure-Python solver asked for)")
    assert core is not None, "engine/five_crowns/_meldcore did not build: see pip's output"


FALLBACK = """
import sys
sys.modules["engine.five_crowns._meldcore"] = None  # as if it was never built
from engine.cards import parse_cards
from engine.five_crowns import compiled, meld_search, melds, solvers, swaps
assert compiled.core is None
assert meld_search._best is meld_search._search
hand = parse_cards("5H 6H 7H 9S 9D JK 4C")
solver = solvers.solver_for(hand, 4)
assert type(solver) is swaps.SwapSolver, type(solver)
assert type(solvers.new_solver(hand, 4)) is swaps.SwapSolver
assert solver.keep == melds.min_penalty(hand, 4) == 0
print("fallback ok")
"""


def test_the_python_solver_answers_when_the_compiled_one_is_absent() -> None:
    result = subprocess.run(
        [sys.executable, "-c", FALLBACK],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 0, result.stderr
    assert "fallback ok" in result.stdout


def test_the_pure_python_switch_leaves_the_compiled_solver_out() -> None:
    code = "from engine.five_crowns import compiled; print(compiled.core)"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT), PURE_PYTHON: "1"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "None"
