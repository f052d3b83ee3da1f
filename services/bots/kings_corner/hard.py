"""Kings in the Corner, ``hard``: searches the whole turn, then judges the board it leaves.

1. Every sequence of plays and moves of this turn is tried on an engine state (depth
   first; each position once: a transposition set is the guard against pile ping-pong,
   and a node budget bounds the time). Every position reached is a way to end the turn.
2. The endings are first ranked quickly (``judge``): cards shed, and what the board
   offers the next seat, whose hand is weighed by what its last turns showed
   (``reading``: a seat that left a board rarely holds the cards that fit it).
3. The best few are played out on sampled positions (``position``: the hidden cards
   dealt consistently with the read), the next players' turns and then our own next
   turn played by the ``normal`` ordering; the ending that leaves us best placed in the
   race (our cards against the leader's, a win or a loss counting most) is played. The
   play-outs are shared out by successive halving: every finalist on a few samples,
   the best of them on all (the same samples for all: their luck cancels out).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from engine.cards import Card, parse_card
from engine.kings_corner import DRAW, END_TURN, Action, Move, Play, State
from services.bots.base import legal, seeded_random
from services.bots.kings_corner import normal
from services.bots.kings_corner.board import Tops, follow, tops_of
from services.bots.kings_corner.judge import Judge
from services.bots.kings_corner.position import sample_state
from services.bots.kings_corner.reading import Reading

NODE_BUDGET = 2000
FINALISTS = 16  # endings played out, the best by the quick judgement
FIRST_SAMPLES = 3  # sampled positions every finalist is played out on
KEPT = 5  # finalists then played out on all of them
SAMPLES = 10  # sampled positions in all
WIN = 12.0  # a round won (or lost) in the look-ahead, in cards of the race
# The most a turn's thinking may take by the wall clock (p99 target 0.2 s): unloaded it
# takes far less; on a busy machine the work is cut short instead of the answer late.
THINK_SECONDS = 0.12
ROLLOUT_STEPS = 400  # a bound on the look-ahead's actions (a turn is rarely 20)

Plan = tuple[Action, ...]


class Player:
    def __init__(self, seed: int | str) -> None:
        self.random = seeded_random(seed, "kings-corner-hard")
        self.reading = Reading()
        self.plan: list[tuple[Any, dict[str, Any]]] = []  # (the view it expects, action)

    def observe(self, view: Mapping[str, Any]) -> None:
        self.reading.observe(view)

    def choose(self, view: Mapping[str, Any]) -> dict[str, Any]:
        actions = legal(view)
        if len(actions) == 1 or view.get("phase") != "play":
            return actions[0]
        key = view_key(view)
        if self.plan and self.plan[0][0] == key and self.plan[0][1] in actions:
            return self.plan.pop(0)[1]
        seat = int(view["seat"])
        started = time.perf_counter()
        samples = self.samples(view)
        spent = time.perf_counter() - started  # dealing the samples counts in the time
        plan = best_plan(samples, seat, self.reading.weights(), THINK_SECONDS - spent)
        self.plan = keyed_plan(samples[0], seat, plan)
        if self.plan and self.plan[0][0] == key and self.plan[0][1] in actions:
            return self.plan.pop(0)[1]
        return normal.choose(view, actions)  # not reached: the plan starts from this view

    def samples(self, view: Mapping[str, Any]) -> list[State]:
        """Positions the seat could be in, the hidden cards dealt by the read."""
        weights = self.reading.weights()
        return [sample_state(view, self.random, weights) for _ in range(SAMPLES)]


def view_key(view: Mapping[str, Any]) -> Any:
    piles = view.get("piles") or {}
    return (tuple(view.get("hand", ())), tuple(tuple(pile) for pile in piles.values()))


def state_key(state: State, seat: int) -> Any:
    return (
        tuple(str(card) for card in state.hand(seat)),
        tuple(tuple(str(card) for card in pile) for pile in state.piles.values()),
    )


def keyed_plan(state: State, seat: int, plan: Plan) -> list[tuple[Any, dict[str, Any]]]:
    """The plan's wire actions, each with the view it is meant for."""
    keyed = []
    for action in plan:
        if state.current_seat != seat:
            break
        keyed.append((state_key(state, seat), action.to_wire()))
        state, _ = state.apply(seat, action)
    return keyed


class Ending(NamedTuple):
    """One way to end the turn: the plan (its last action ends the turn, or wins the
    round), and the hand and the pile tops and bottoms it leaves."""

    plan: Plan
    hand: tuple[Card, ...]
    top: Tops
    bottom: Tops


def turn_endings(
    state: State, seat: int, budget: int = NODE_BUDGET, deadline: float | None = None
) -> list[Ending]:
    """Every distinct way to end this turn found within ``budget`` positions (and before
    the ``deadline``, a ``time.perf_counter()`` value)."""
    endings: list[Ending] = []
    seen: set[Any] = set()
    root_top, root_bottom = tops_of(state.piles)
    stack: list[tuple[State, Plan, Tops, Tops]] = [(state, (), root_top, root_bottom)]
    while stack and len(seen) < budget:
        here, path, top, bottom = stack.pop()
        hand = here.hand(seat)
        # What follows depends on the tops and bottoms alone, not on the cards between.
        key = (hand, tuple(top.values()), tuple(bottom.values()))
        if key in seen:
            continue  # reached before by another order (or a pile went back and forth)
        seen.add(key)
        if deadline is not None and not len(seen) % 128 and time.perf_counter() > deadline:
            break
        steps: list[Action] = []
        for action in here.legal_actions(seat):
            if isinstance(action, Play | Move):
                steps.append(action)
            elif action is END_TURN or action is DRAW:  # a draw ends the turn (draw=end)
                endings.append(Ending((*path, action), hand, top, bottom))
        for action in reversed(steps):  # the engine's order: plays first, moves last
            after, _ = here.apply(seat, action)
            next_top, next_bottom = dict(top), dict(bottom)
            follow(next_top, next_bottom, action)
            if after.current_seat != seat:  # the last card went: the round is won
                return [Ending((*path, action), (), next_top, next_bottom)]
            stack.append((after, (*path, action), next_top, next_bottom))
    return endings


def best_plan(
    samples: Sequence[State],
    seat: int,
    weights: Mapping[int, Mapping[str, float]],
    think_seconds: float | None = None,
) -> Plan:
    """The ending whose play-outs on ``samples`` leave ``seat`` best placed.

    ``think_seconds`` (wall clock, default ``THINK_SECONDS``) cuts the work short on a
    busy machine: the search keeps what it found, the play-outs what they scored.
    """
    deadline = time.perf_counter() + (THINK_SECONDS if think_seconds is None else think_seconds)
    endings = turn_endings(samples[0], seat, deadline=deadline)
    if len(endings) == 1:
        return endings[0].plan
    by_card = {
        other: {parse_card(text): weight for text, weight in weighed.items()}
        for other, weighed in weights.items()
    }
    judge = Judge(samples[0], seat, by_card)
    endings.sort(key=lambda ending: -judge.score(ending.hand, ending.top))
    # Successive halving: every finalist on a few samples, the best few on them all.
    scored: list[tuple[float, Ending]] = []
    for ending in endings[:FINALISTS]:
        if scored and time.perf_counter() > deadline:
            break
        first = sum(play_out(sample, ending, seat) for sample in samples[:FIRST_SAMPLES])
        scored.append((first, ending))
    scored.sort(key=lambda pair: -pair[0])
    best: tuple[float, Plan] = (-math.inf, scored[0][1].plan)
    for first, ending in scored[:KEPT]:
        if time.perf_counter() > deadline:
            break  # those not played out on every sample are not compared with those that were
        score = first + sum(play_out(sample, ending, seat) for sample in samples[FIRST_SAMPLES:])
        if score > best[0]:
            best = (score, ending.plan)
    return best[1]


def play_out(state: State, ending: Ending, seat: int) -> float:
    """Play the ending's plan, then a turn of each seat (ours last) by the ``normal``
    ordering; how well placed ``seat`` is then (higher: better)."""
    for action in ending.plan:
        state, _ = state.apply(seat, action)
    top, bottom = dict(ending.top), dict(ending.bottom)
    turns = 0
    for _ in range(ROLLOUT_STEPS):
        mover = state.current_seat
        if mover is None or turns >= state.seats:
            break
        playing = state.phase == "play"
        actions = state.legal_actions(mover)
        action = actions[0] if len(actions) == 1 else normal.pick(state.hand(mover), top, actions)
        state, _ = state.apply(mover, action)
        follow(top, bottom, action)
        if action is END_TURN or (action is DRAW and playing) or state.current_seat != mover:
            turns += 1
    return standing(state.hand_counts, seat, state.current_seat is None)


def standing(counts: Sequence[int], seat: int, over: bool) -> float:
    """``seat``'s place in the race: the leader's cards less ours; a round over is a win
    or a loss (blocked: the fewest cards win)."""
    mine = counts[seat]
    leader = min(count for other, count in enumerate(counts) if other != seat)
    if mine == 0 or (over and mine <= leader):
        return WIN
    if leader == 0 or over:
        return -WIN
    return float(leader - mine)
