"""From a line of text and the speaker's own seat view to an action, an answer or a refusal.

The view's legal actions fill in what the words leave out ("seven of hearts" when the seven
fits one pile only). Words that name a whole action the table would refuse ("seven of
hearts on north" when it does not fit) are still sent as that action: the tables service
then says exactly why, in the player's language, as it does for a tap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from services.assistant.words import (
    CONNECTORS,
    CORNER_WORDS,
    HORIZONTAL,
    JOKER_WORDS,
    PHRASES,
    RANK_WORDS,
    SUIT_WORDS,
    VERTICAL,
    WEAK_RANKS,
    card_code,
    normalize,
)

Action = dict[str, Any]
# What a verb allows: action types, and for a draw its source.
VERB_TYPES: dict[str, tuple[str, ...]] = {
    "draw": ("draw",),
    "take_discard": ("draw",),
    "end_turn": ("end_turn",),
    "discard": ("discard",),
    "go_out": ("go_out",),
    "move": ("move",),
}
QUESTIONS = ("ask_turn", "ask_hand", "ask_moves", "ask_help")
RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
RANK_OF_TEXT = {text: rank for rank, text in RANK_TEXT.items()}
# After these, French "est" is "is" ("c'est", "qui est"), not east.
IS_AFTER = frozenset({"c", "ce", "ca", "il", "elle", "qui", "quel", "quelle", "ou", "tour"})


@dataclass(frozen=True, slots=True)
class Act:
    """Send this action for the speaker's seat."""

    action: Action


@dataclass(frozen=True, slots=True)
class Answer:
    """Tell the speaker something: a code and its parameters."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Refusal:
    """Nothing to do: why, as a code and its parameters."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)


Understood = Act | Answer | Refusal


@dataclass(frozen=True, slots=True)
class CardWords:
    """A card as said: its rank, and its suit when one was named (joker: rank 0)."""

    rank: int
    suit: str | None

    def matches(self, text: str) -> bool:
        if self.rank == 0:
            return text == "JK"
        return card_rank(text) == self.rank and (self.suit is None or text[-1] == self.suit)

    def text(self) -> str | None:
        if self.rank == 0:
            return "JK"
        if self.suit is None:
            return None
        return f"{RANK_TEXT.get(self.rank, str(self.rank))}{self.suit}"


@dataclass(frozen=True, slots=True)
class Said:
    """What a line of text names: verbs and questions, cards, piles (in order)."""

    phrases: frozenset[str]
    cards: tuple[CardWords, ...]
    piles: tuple[str, ...]


def card_rank(text: str) -> int:
    """The rank of a card's text ("QH" -> 12, "10S" -> 10); -1 for the joker."""
    head = text[:-1]
    return RANK_OF_TEXT.get(head) or (int(head) if head.isdigit() else -1)


def read(text: str) -> Said:
    """The phrases, cards and piles in ``text``, in any of the four languages."""
    words = normalize(text)
    return Said(_phrases(words), _cards(words), _piles(words))


def understand(text: str, state: Mapping[str, Any] | None) -> Understood:
    """What the speaker, whose seat view holds ``state``, asked for."""
    said = read(text)
    for question in QUESTIONS:
        if question in said.phrases:
            return _answer(question, state)
    if state is None:
        return Refusal("no_game_yet")
    if not (said.cards or said.piles or said.phrases & VERB_TYPES.keys()):
        return Refusal("not_understood", {"text": text[:80]})
    legal: Sequence[Action] = state.get("legal_actions") or []
    candidates = [action for action in legal if _fits(action, said)]
    if len(candidates) == 1:
        return Act(candidates[0])
    if candidates:
        return _which(candidates)
    direct = _whole_action(said, str(state.get("game")))
    if direct is not None:
        return Act(direct)
    for card in said.cards:
        shown = card.text() or RANK_TEXT.get(card.rank, str(card.rank))
        if not any(card.matches(held) for held in state.get("hand") or []):
            return Refusal("card_not_held", {"card": shown})
        return Refusal("no_move_for_card", {"card": shown})
    return Refusal("no_such_move")


def _answer(question: str, state: Mapping[str, Any] | None) -> Understood:
    if question == "ask_help":
        return Answer("help", {"game": state.get("game") if state else None})
    if state is None:
        return Refusal("no_game_yet")
    if question == "ask_turn":
        return Answer("turn", {"seat": state.get("current_seat")})
    if question == "ask_hand":
        return Answer("hand", {"cards": list(state.get("hand") or [])})
    legal: Sequence[Action] = state.get("legal_actions") or []
    cards = sorted({card for card in map(_card_of, legal) if card is not None})
    return Answer("moves", {"cards": cards}) if cards else Answer("moves_none")


def _card_of(action: Action) -> str | None:
    """The card an action plays or throws away (a go-out names its discard)."""
    card = action.get("card") or action.get("discard")
    return None if card is None else str(card)


def _which(candidates: list[Action]) -> Refusal:
    types = {action["type"] for action in candidates}
    named = [_card_of(action) for action in candidates]
    cards = sorted({card for card in named if card is not None})
    if types == {"discard", "go_out"} and len(cards) == 1:
        return Refusal("go_out_or_discard", {"card": cards[0]})
    if types == {"play"} and len(cards) == 1:
        return Refusal("which_pile", {"card": cards[0], "piles": [a["pile"] for a in candidates]})
    if None not in named:
        return Refusal("which_card", {"cards": cards})
    return Refusal("which_move", {"count": len(candidates)})


def _fits(action: Action, said: Said) -> bool:
    kind = action["type"]
    verbs = said.phrases & VERB_TYPES.keys()
    if verbs and kind not in {allowed for verb in verbs for allowed in VERB_TYPES[verb]}:
        return False
    if kind in ("play", "discard", "go_out"):
        held = _card_of(action)
        if not said.cards:
            return kind == "go_out" and "go_out" in verbs
        if held is None or not said.cards[0].matches(held):
            return False
        return kind != "play" or not said.piles or action["pile"] == said.piles[-1]
    if kind == "move":
        if len(said.piles) >= 2:
            return bool(action["from"] == said.piles[0] and action["to"] == said.piles[-1])
        return "move" in verbs and len(said.piles) == 1 and said.piles[0] in action.values()
    if kind == "draw":
        wanted = "discard" if "take_discard" in verbs else "stock"
        return bool(verbs) and action.get("source", "stock") == wanted
    return bool(verbs)  # the end of a turn: only when said


def _whole_action(said: Said, game: str) -> Action | None:
    """The action the words name in full, legal or not (the table will say why not)."""
    verbs = said.phrases & VERB_TYPES.keys()
    card = said.cards[0].text() if said.cards else None
    if "take_discard" in verbs:
        return {"type": "draw", "source": "discard"}
    if "draw" in verbs:
        return {"type": "draw", "source": "stock"} if game == "five-crowns" else {"type": "draw"}
    if "end_turn" in verbs and game == "kings-corner":
        return {"type": "end_turn"}
    if game == "kings-corner":
        if len(said.piles) >= 2 and not card:
            return {"type": "move", "from": said.piles[0], "to": said.piles[-1]}
        if card and said.piles:
            return {"type": "play", "card": card, "pile": said.piles[-1]}
        return None
    if card and "go_out" in verbs:
        return {"type": "go_out", "discard": card}
    if card and "discard" in verbs:
        return {"type": "discard", "card": card}
    return None


def _phrases(words: list[str]) -> frozenset[str]:
    found = set()
    for name, phrases in PHRASES.items():
        if any(_contains(words, phrase) for phrase in phrases):
            found.add(name)
    if "take_discard" in found:
        found.discard("discard")  # "take the discard" is a draw
    if "go_out" in found:
        found.discard("discard")  # "go out, discarding the seven"
    return frozenset(found)


def _contains(words: list[str], phrase: tuple[str, ...]) -> bool:
    """Whether ``phrase`` appears in ``words`` in order (other words may come between)."""
    position = 0
    for word in words:
        if word == phrase[position]:
            position += 1
            if position == len(phrase):
                return True
    return False


def _cards(words: list[str]) -> tuple[CardWords, ...]:
    cards: list[CardWords] = []
    used: set[int] = set()
    for index, word in enumerate(words):
        if word in JOKER_WORDS:
            cards.append(CardWords(0, None))
        elif (code := card_code(word)) is not None:
            cards.append(CardWords(*code))
        elif word in RANK_WORDS and index not in used:
            suit_at = _suit_beside(words, index)
            if suit_at is None and word in WEAK_RANKS:
                continue
            if suit_at is not None:
                used.add(suit_at)
            suit = SUIT_WORDS[words[suit_at]] if suit_at is not None else None
            cards.append(CardWords(RANK_WORDS[word], suit))
        elif word.isdigit() and 2 <= int(word) <= 13:
            suit_at = _suit_beside(words, index)
            suit = SUIT_WORDS[words[suit_at]] if suit_at is not None else None
            cards.append(CardWords(int(word), suit))
    return tuple(cards)


def _suit_beside(words: list[str], index: int) -> int | None:
    """The suit word just after ``index`` ("seven of hearts"), or just before ("harten zeven")."""
    after = index + 1
    while after < len(words) and words[after] in CONNECTORS:
        after += 1
    if after < len(words) and words[after] in SUIT_WORDS:
        return after
    if index > 0 and words[index - 1] in SUIT_WORDS:
        return index - 1
    return None


def _piles(words: list[str]) -> tuple[str, ...]:
    piles: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        following = words[index + 1] if index + 1 < len(words) else ""
        if word in CORNER_WORDS:
            piles.append(CORNER_WORDS[word])
        elif word in VERTICAL and following in HORIZONTAL:
            piles.append(VERTICAL[word] + HORIZONTAL[following])
            index += 1
        elif word in VERTICAL:
            piles.append(VERTICAL[word])
        elif word in HORIZONTAL and not (word == "est" and index and words[index - 1] in IS_AFTER):
            piles.append(HORIZONTAL[word])
        index += 1
    return tuple(piles)
