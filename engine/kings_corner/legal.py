"""What the legal actions of the play phase are made of, prepared for speed.

The work is split in two. What depends on the piles alone (a ``Board``: what fits on
each top, the empty spots, the pile moves) is worked out once per arrangement of the
piles, passed on by the states that keep it (a draw or a turn's end leaves the piles as
they were) and brought up to date cheaply after each play or move. Only the part that
depends on the hand is redone for each position, in ``State.legal_actions``, from the
tables here.
"""

from __future__ import annotations

from operator import attrgetter

from engine.kings_corner.actions import ACTIONS, MOVE_BASE, Action
from engine.kings_corner.tables import (
    ABOVE,
    ABOVE_MASK,
    BIT,
    FITS_MASK,
    FITS_ON,
    KING_MASK,
    KINGS,
)

Piles = tuple[tuple[int, ...], ...]
# What fits on one pile: the mask of those cards, and (bit, play) for each.
Target = tuple[int, tuple[tuple[int, Action], ...]]
Board = tuple[
    tuple[Target, ...],  # one per pile, in pile order (mask 0: nothing fits, or empty)
    tuple[int, ...],  # empty side spots
    tuple[int, ...],  # empty corners
    tuple[Action, ...],  # legal pile moves, by source then target
    int,  # mask of the side piles' bottom cards (only side piles ever move)
]

NOTHING: Target = (0, ())
_OP = attrgetter("op")
# TARGETS[top * 8 + pile]
TARGETS: tuple[Target, ...] = tuple(
    (FITS_MASK[top], tuple((BIT[card], ACTIONS[card * 8 + pile]) for card in FITS_ON[top]))
    for top in range(52)
    for pile in range(8)
)


# _FILLS[side][k][byte]: the plays filling ``side`` with the cards of byte k of a hand.
_FILLS: tuple[tuple[tuple[tuple[Action, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            tuple(ACTIONS[(k * 8 + bit) * 8 + side] for bit in range(8) if byte >> bit & 1)
            for byte in range(256)
        )
        for k in range(7)
    )
    for side in range(4)
)


def fills(side: int, hand: int) -> tuple[Action, ...]:
    """The plays of every card of ``hand`` into the empty side spot ``side``, in card order."""
    b0, b1, b2, b3, b4, b5, b6 = _FILLS[side]
    return (
        b0[hand & 255]
        + b1[hand >> 8 & 255]
        + b2[hand >> 16 & 255]
        + b3[hand >> 24 & 255]
        + b4[hand >> 32 & 255]
        + b5[hand >> 40 & 255]
        + b6[hand >> 48]
    )


def analyse_board(piles: Piles, king_pile_to_corner: bool) -> Board:
    """The part of the legal actions that depends on the piles alone."""
    targets: list[Target] = []
    sides: list[int] = []
    corners: list[int] = []
    below = bottoms = 0  # the cards that fit on some top; the side piles' bottom cards
    for index, pile in enumerate(piles):
        if pile:
            target = TARGETS[pile[-1] * 8 + index]
            targets.append(target)
            below |= target[0]
            if index < 4:
                bottoms |= BIT[pile[0]]
        else:
            targets.append(NOTHING)
            if index < 4:
                sides.append(index)
            else:
                corners.append(index)
    king_piles = bottoms & KING_MASK if corners and king_pile_to_corner else 0
    moves = pile_moves(piles, corners, king_piles) if below & bottoms or king_piles else ()
    return tuple(targets), tuple(sides), tuple(corners), moves, bottoms


def board_after_build(board: Board, piles: Piles, index: int, old_top: int, card: int) -> Board:
    """``board`` once ``card`` went on ``old_top``, the top of pile ``index`` (giving ``piles``).

    Only that pile's top changed: what fits on it, and which piles may move onto it.
    """
    targets, sides, corners, moves, bottoms = board
    changed = list(targets)
    changed[index] = TARGETS[card * 8 + index]
    if FITS_MASK[old_top] & bottoms:  # there may have been moves onto the old top
        moves = tuple([move for move in moves if move.op & 7 != index])
    movers = FITS_MASK[card] & bottoms
    if movers:  # side piles whose bottom card fits on the new top
        onto = [
            ACTIONS[MOVE_BASE + source * 8 + index]
            for source in (0, 1, 2, 3)
            if piles[source] and BIT[piles[source][0]] & movers
        ]
        moves = tuple(sorted((*moves, *onto), key=_OP))
    return tuple(changed), sides, corners, moves, bottoms


def board_after_fill(board: Board, piles: Piles, index: int, card: int, king_pile: bool) -> Board:
    """``board`` once ``card`` filled the empty spot ``index`` (giving ``piles``).

    The spot is no longer empty; piles may move onto the new card; a new side pile may
    move onto another pile (or, a King, into an empty corner); a filled corner takes no
    King pile any more.
    """
    targets, sides, corners, moves, bottoms = board
    changed = list(targets)
    changed[index] = TARGETS[card * 8 + index]
    added: list[Action] = []
    if index < 4:
        sides = tuple([side for side in sides if side != index])
        bottoms |= BIT[card]
        base = MOVE_BASE + index * 8
        if ABOVE_MASK[card]:
            above = ABOVE_MASK[card]
            added += [
                ACTIONS[base + target]
                for target, pile in enumerate(piles)
                if pile and BIT[pile[-1]] & above
            ]
        elif corners and king_pile:
            added += [ACTIONS[base + corner] for corner in corners]
    else:
        corners = tuple([corner for corner in corners if corner != index])
        if moves:
            moves = tuple([move for move in moves if move.op & 7 != index])
    movers = FITS_MASK[card] & bottoms
    if movers:
        added += [
            ACTIONS[MOVE_BASE + source * 8 + index]
            for source in (0, 1, 2, 3)
            if piles[source] and BIT[piles[source][0]] & movers
        ]
    if added:
        moves = tuple(sorted((*moves, *added), key=_OP))
    return tuple(changed), sides, corners, moves, bottoms


def board_after_move(
    board: Board, piles: Piles, source: int, target: int, bottom: int, king_pile: bool
) -> Board:
    """``board`` once the side pile ``source`` (bottom card ``bottom``) moved to ``target``.

    The pile moves are worked out again: any of them may have changed.
    """
    targets, sides, corners, _, bottoms = board
    changed = list(targets)
    changed[source] = NOTHING
    changed[target] = TARGETS[piles[target][-1] * 8 + target]
    sides = tuple(sorted((*sides, source)))
    if target in corners:  # a King pile went into an empty corner
        corners = tuple([corner for corner in corners if corner != target])
    bottoms &= ~BIT[bottom]
    below = 0
    for mask, _ in changed:
        below |= mask
    king_piles = bottoms & KING_MASK if corners and king_pile else 0
    moves = pile_moves(piles, corners, king_piles) if below & bottoms or king_piles else ()
    return tuple(changed), sides, corners, moves, bottoms


def pile_moves(
    piles: Piles, corners: tuple[int, ...] | list[int], king_piles: int
) -> tuple[Action, ...]:
    """Whole-pile moves by source then target: onto a pile, or a King pile into a corner.

    Only side piles move: a corner pile starts with a King, which goes on no card, and
    may not move to another corner. ``king_piles``: the King bottoms that may go into
    the empty ``corners``.
    """
    tops = {pile[-1]: index for index, pile in enumerate(piles) if pile}
    moves: list[Action] = []
    for source in (0, 1, 2, 3):
        pile = piles[source]
        if not pile:
            continue
        bottom = pile[0]
        base = MOVE_BASE + source * 8
        if ABOVE_MASK[bottom]:
            found = sorted(tops[card] for card in ABOVE[bottom] if card in tops)
            moves += [ACTIONS[base + target] for target in found]
        elif king_piles & BIT[bottom]:
            moves += [ACTIONS[base + corner] for corner in corners]
    return tuple(moves)


def corner_kings(kings: int, corners: tuple[int, ...]) -> tuple[Action, ...]:
    """The plays of the Kings in ``kings`` (a mask) into each empty corner, corner by corner."""
    return tuple([ACTIONS[king * 8 + c] for c in corners for king in KINGS if kings & BIT[king]])
