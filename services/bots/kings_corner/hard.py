"""Kings in the Corner, ``hard``: searches the whole turn, then judges the board it leaves.

The hidden cards are sampled into an engine state (``position``), and every sequence of
plays and moves of this turn is tried on it (depth first, best-looking first, each
position once: a transposition set is the guard against pile ping-pong, and a node
budget bounds the time). A sequence is first judged quickly by the cards it sheds and
by what the board it leaves offers the next players: empty side spots take any card,
and a pile's top takes the two cards one rank lower of the other colour, which the next
seat holds with a chance that grows with its hand. The best few are then played out on
other sampled positions (determinisation), with the next seat's whole reply played by
the ``normal`` rules: the sequence leaving it the least to shed wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import KING, Card
from engine.kings_corner import State
from engine.registry import game_rules
from services.bots.base import legal, seeded_random
from services.bots.kings_corner import normal
from services.bots.kings_corner.board import fits_on
from services.bots.kings_corner.position import sample_state

NODE_BUDGET = 2500
ENDINGS = ("draw", "end_turn")
WIN = 1000.0
THREAT_WEIGHT = (0.7, 0.3, 0.15)  # the next seat matters most, then the one after...
FINALISTS = 6  # the best sequences by the quick judgement, then played out
SAMPLES = 3  # sampled positions each finalist is played out on
REPLY_WEIGHT = 0.8  # a card the next seat sheds weighs nearly as much as one of ours


class Player:
    def __init__(self, seed: int | str) -> None:
        self.random = seeded_random(seed, "kings-corner-hard")
        self.plan: list[tuple[Any, dict[str, Any]]] = []

    def observe(self, view: Mapping[str, Any]) -> None:
        pass

    def choose(self, view: Mapping[str, Any]) -> dict[str, Any]:
        actions = legal(view)
        if len(actions) == 1 or view.get("phase") != "play":
            return actions[0]
        key = _view_key(view)
        if self.plan and self.plan[0][0] == key and self.plan[0][1] in actions:
            return self.plan.pop(0)[1]
        seat = int(view["seat"])
        state = sample_state(view, self.random)
        finalists = search_turn(state, seat)
        samples = [sample_state(view, self.random) for _ in range(SAMPLES)]
        self.plan = best_reply_aware(finalists, samples, seat)
        if self.plan and self.plan[0][1] in actions:
            return self.plan.pop(0)[1]
        return normal.choose(view, actions)


def _view_key(view: Mapping[str, Any]) -> Any:
    piles = view.get("piles") or {}
    return (tuple(view.get("hand", ())), tuple(tuple(pile) for pile in piles.values()))


def _state_key(state: State, seat: int) -> Any:
    return (
        tuple(str(card) for card in state.hand(seat)),
        tuple(tuple(str(card) for card in pile) for pile in state.piles.values()),
    )


Plan = list[tuple[Any, dict[str, Any]]]


class _Search:
    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.seen: set[Any] = set()
        self.nodes = 0
        self.leaves: list[tuple[float, Plan]] = []

    def run(self, state: State, path: list[tuple[Any, dict[str, Any]]]) -> None:
        self.nodes += 1
        key = _state_key(state, self.seat)
        if key in self.seen:
            return  # reached before by another order (or a pile went back and forth)
        self.seen.add(key)
        over = state.current_seat != self.seat
        actions = [] if over else list(state.legal_actions(self.seat))
        ending = next((a for a in actions if a.to_wire()["type"] in ENDINGS), None)
        if over or ending is not None or not actions:
            tail = [] if over or ending is None else [(key, ending.to_wire())]
            self.leaves.append((_judge(state, self.seat), [*path, *tail]))
        if over or self.nodes >= NODE_BUDGET:
            return
        steps = [a for a in actions if a is not ending]
        steps.sort(key=lambda a: _order(a.to_wire()))
        for action in steps:
            if self.nodes >= NODE_BUDGET:
                return
            after, _ = state.apply(self.seat, action)
            self.run(after, [*path, (key, action.to_wire())])


def search_turn(state: State, seat: int) -> list[tuple[float, Plan]]:
    """The ``FINALISTS`` best whole-turn sequences by the quick judgement, best first."""
    search = _Search(seat)
    search.run(state, [])
    search.leaves.sort(key=lambda leaf: -leaf[0])
    return search.leaves[:FINALISTS]


def best_reply_aware(finalists: list[tuple[float, Plan]], samples: list[State], seat: int) -> Plan:
    """Among the finalists, the sequence whose board the next seat does least with: each
    is played on sampled positions, then the next seat's turn as a ``normal`` player."""
    if len(finalists) <= 1:
        return finalists[0][1] if finalists else []
    best: tuple[float, Plan] | None = None
    for _, plan in finalists:
        total = 0.0
        for sample in samples:
            total += _play_out(sample, plan, seat)
        score = total / len(samples)
        if best is None or score > best[0]:
            best = (score, plan)
    assert best is not None
    return best[1]


def _play_out(state: State, plan: Plan, seat: int) -> float:
    """Our cards left (fewer: better) against the next seat's, after its reply."""
    rules = game_rules("kings-corner")
    for _, wire in plan:
        if state.current_seat != seat:
            break
        state, _ = state.apply(seat, rules.parse_action(wire))
    mine = len(state.hand(seat))
    if not mine:
        return WIN
    replier = state.current_seat
    if replier is None:
        return -float(mine)
    before = len(state.hand(replier))
    for _ in range(60):  # the reply: the next seat's whole turn
        if state.current_seat != replier:
            break
        view = state.view_for(replier)
        reply = normal.choose(view, view["legal_actions"])
        state, _ = state.apply(replier, rules.parse_action(reply))
    shed = before - len(state.hand(replier))
    return -mine - REPLY_WEIGHT * shed


def _order(action: Mapping[str, Any]) -> int:
    return {"play": 0, "move": 1}.get(str(action["type"]), 2)


def _judge(state: State, seat: int) -> float:
    """Higher is better for ``seat``: cards shed, less left for the next players."""
    hand = state.hand(seat)
    if not hand:
        return WIN
    counts = state.hand_counts
    tops = [pile[-1] if pile else None for pile in state.piles.values()]
    visible = set(hand) | {card for pile in state.piles.values() for card in pile}
    unseen = 52 - len(visible)
    threat = 0.0
    seats = len(counts)
    for step, weight in enumerate(THREAT_WEIGHT[: seats - 1], start=1):
        other = (seat + step) % seats
        share = min(1.0, counts[other] / max(1, unseen))
        threat += weight * _offers(tops, visible, share, state)
    own = sum(1 for card in hand for top in tops if top is not None and fits_on(card, top))
    return -len(hand) - threat + 0.1 * own


def _offers(tops: Sequence[Card | None], visible: set[Card], share: float, state: State) -> float:
    """How many cards a seat holding ``share`` of the unseen cards could shed here."""
    offered = 0.0
    names = list(state.piles)
    for name, top in zip(names, tops, strict=True):
        if top is None:
            # An empty side spot takes anything; an empty corner, a King (8 per deck... 4).
            offered += 1.0 if len(name) == 1 else 1 - (1 - share) ** _kings_unseen(visible)
            continue
        fitting = sum(
            1
            for suit in ("C", "D", "H", "S")
            if top.rank > 1
            and (candidate := Card(top.rank - 1, suit)) not in visible
            and fits_on(candidate, top)
        )
        offered += 1 - (1 - share) ** fitting
    return offered


def _kings_unseen(visible: set[Card]) -> int:
    return sum(1 for suit in ("C", "D", "H", "S") if Card(KING, suit) not in visible)
