"""Why an action is refused: the slow path, run only when ``apply`` rejects an action.

It reads the position through the state's public accessors and names the first rule the
action breaks, with parameters a screen can put into a sentence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.cards import KING, Card
from engine.errors import ActionSyntaxError, IllegalActionError, RuleError
from engine.kings_corner.actions import DRAW, Draw, EndTurn, Move, Play
from engine.kings_corner.tables import CARD_NUMBER, PILE_INDEX

if TYPE_CHECKING:
    from engine.kings_corner.state import State


def _is_corner(pile: str) -> bool:
    return PILE_INDEX[pile] >= 4


def _kings_pending(state: State, seat: int) -> tuple[Card, ...]:
    """Kings ``seat`` must put in a corner now ("mandatory kings"), if any."""
    if not state.setup.mandatory_kings:
        return ()
    piles = state.piles
    if all(piles[name] for name in piles if _is_corner(name)):
        return ()
    return tuple(card for card in state.hand(seat) if card.rank == KING)


def _fit(card: Card, top: Card, **where: str) -> RuleError | None:
    """Why ``card`` cannot go on ``top``, if it cannot."""
    if card.rank != top.rank - 1:
        return IllegalActionError("not_one_lower", card=str(card), top=str(top), **where)
    if card.is_red == top.is_red:
        return IllegalActionError("same_colour", card=str(card), top=str(top), **where)
    return None


def refusal(state: State, seat: int, action: object) -> RuleError:
    """The error explaining why ``seat`` may not do ``action`` in ``state``."""
    if not isinstance(action, Play | Move | Draw | EndTurn):
        return ActionSyntaxError("bad_action", type=type(action).__name__)
    current = state.current_seat
    if current is None:
        return IllegalActionError("round_over", round=state.round_number)
    if seat != current:
        return IllegalActionError("not_your_turn", seat=seat, current_seat=current)
    if isinstance(action, Draw):
        error = _draw_refusal(state, seat)
    elif state.phase == "draw":
        error = IllegalActionError("must_draw_first")
    elif isinstance(action, Play):
        error = _play_refusal(state, seat, action)
    elif isinstance(action, Move):
        error = _move_refusal(state, seat, action)
    else:
        error = _kings_refusal(state, seat, action)
        if error is None and state.setup.options["draw"] == "end" and state.stock_count:
            error = IllegalActionError("must_draw_to_end_turn")
    # Only reached if these rules and the legal list disagree: a bug, but still a no.
    return error or IllegalActionError("illegal_action", action=repr(action))


def _draw_refusal(state: State, seat: int) -> RuleError | None:
    draw_rule = state.setup.options["draw"]
    if draw_rule == "never":
        return IllegalActionError("no_draw_rule")
    if state.stock_count == 0:
        return IllegalActionError("stock_empty")
    if draw_rule == "start":
        return IllegalActionError("already_drew")
    return _kings_refusal(state, seat, DRAW)


def _kings_refusal(
    state: State, seat: int, action: Play | Move | Draw | EndTurn
) -> RuleError | None:
    """``must_play_king`` unless ``action`` puts a pending King into an empty corner."""
    kings = _kings_pending(state, seat)
    if not kings:
        return None
    if (
        isinstance(action, Play)
        and action.card in kings
        and _is_corner(action.pile)
        and not state.piles[action.pile]
    ):
        return None
    return IllegalActionError("must_play_king", kings=[str(king) for king in kings])


def _play_refusal(state: State, seat: int, action: Play) -> RuleError | None:
    if not isinstance(action.pile, str) or action.pile not in PILE_INDEX:
        return IllegalActionError("no_such_pile", pile=str(action.pile))
    card = action.card
    if not isinstance(card, Card) or card not in CARD_NUMBER or card not in state.hand(seat):
        return IllegalActionError("card_not_in_hand", card=str(card))
    pile = state.piles[action.pile]
    if not pile and _is_corner(action.pile) and card.rank != KING:
        return IllegalActionError("corner_needs_king", card=str(card), pile=action.pile)
    error = _kings_refusal(state, seat, action)
    if error is None and pile:
        error = _fit(card, pile[-1], pile=action.pile)
    return error


def _move_refusal(state: State, seat: int, action: Move) -> RuleError | None:
    for name in (action.source, action.target):
        if not isinstance(name, str) or name not in PILE_INDEX:
            return IllegalActionError("no_such_pile", pile=str(name))
    source, target = action.source, action.target
    where = {"from": source, "to": target}
    if source == target:
        return IllegalActionError("cannot_move_pile", reason="same_pile", **where)
    piles = state.piles
    if not piles[source]:
        return IllegalActionError("pile_empty", pile=source)
    error = _kings_refusal(state, seat, action)
    if error is not None:
        return error
    bottom = piles[source][0]
    if piles[target]:
        return _fit(bottom, piles[target][-1], **where)
    if not _is_corner(target):
        return IllegalActionError("cannot_move_pile", reason="empty_side", **where)
    if bottom.rank != KING:
        return IllegalActionError("corner_needs_king", card=str(bottom), pile=target)
    if _is_corner(source):
        return IllegalActionError("cannot_move_pile", reason="corner_to_corner", **where)
    if not state.setup.king_pile_to_corner:
        return IllegalActionError("cannot_move_pile", reason="option_off", **where)
    return None
