"""From a line of text and the speaker's own seat view to an action, an answer or a refusal.

Closed-set recognition: a seat has a few dozen legal actions at most, and a few known
questions. The line is read once (``reading``), questions are tried first (a question
that names a card is not a play), then every legal action is checked against everything
the line names: an action must explain every card, pile and verb said, and contradict
none. One action left is sent; several ask which; none falls back to a refusal that says
why, or, when the words name a whole action the table would refuse ("seven of hearts on
north" when it does not fit), that action, so the tables service explains why in the
player's language, as it does for a tap.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from services.assistant.outcomes import Act, Answer, Refusal, Understood, card_of
from services.assistant.questions import ask
from services.assistant.reading import (
    ARTICLES,
    CardSpec,
    PileSpec,
    Reading,
    another_time,
    card_rank,
    corrects_itself,
    only_excusing,
    only_waiting,
    read,
)
from services.assistant.sentences import (
    after_talk,
    by_sentence,
    core,
    first_step,
    once,
    said_twice,
    sentences,
)
from services.assistant.similar import recognise
from services.assistant.words import (
    CONFIRMING_TAGS,
    CONNECTORS,
    FILLERS,
    FROM,
    LANGUAGE_ONLY,
    ONTO,
    concepts_of,
    first_names,
    is_known,
)

Action = dict[str, Any]
__all__ = ["Act", "Answer", "Refusal", "Understood", "fits", "understand"]
VERBS = frozenset({"draw", "take", "discard", "go_out", "end_turn", "move", "play"})
# Verbs each action type may be said with (no verb at all fits the actions that need none).
ALLOWED_VERBS: dict[str, frozenset[str]] = {
    "play": frozenset({"play", "move"}),
    "move": frozenset({"move", "play"}),
    "discard": frozenset({"discard", "play"}),
    "go_out": frozenset({"go_out", "discard", "play"}),
    "draw": frozenset({"draw", "take"}),
    "end_turn": frozenset({"end_turn"}),
}
# Asking the assistant to do it ("can you play…") is a request, not a question.
REQUEST_WORDS = frozenset(
    {"you", "tu", "voce", "jij", "please", "svp", "stp", "pf", "poderia", "pourriez"}
)
PRONOUNS = frozenset(
    {"i", "me", "my", "je", "j", "moi", "ma", "mon", "eu", "ik", "mij", "mijn", "you", "tu"}
)
DUTCH_ASK = frozenset({"kun", "kan", "wil", "zou", "wilt", "kunt", "zoudt"})
STRUCTURE = ONTO | FROM | CONNECTORS  # "from", "onto": neither known nor noise


def is_request(reading: Reading) -> bool:
    """ "can you play the seven", "peux-tu…", "kun je…": the speaker asks for it done
    (not "would you take the queen?": an opinion asked)."""
    words = reading.words
    if reading.asks_opinion():
        return False
    if set(words) & REQUEST_WORDS:
        return True
    return any(a in DUTCH_ASK and b in ("je", "u") for a, b in itertools.pairwise(words))


def understand(
    text: str,
    state: Mapping[str, Any] | None,
    names: Mapping[int, str] | None = None,
    lang: str | None = None,
) -> Understood:
    """What the speaker, whose seat view holds ``state``, asked for.

    ``names`` are the players' names by seat, from the public table view (questions such
    as "how many cards has Ana got?" need them); ``lang`` is the speaker's language, if
    known (every language's words are understood; stems are compared in that one).
    """
    spoken = after_talk(text, lang)
    if spoken is not None:
        return understand(spoken, state, names, lang)  # the room talked to, then the move
    parts = sentences(text)
    corrected = corrects_itself(text)
    if len(parts) > 1 and not corrected:
        chosen = by_sentence(parts, lambda part: _understand_line(part, state, names, lang), lang)
        if chosen is not None:
            return chosen
    whole = _understand_line(text, state, names, lang)
    halves = said_twice(text) if _unplaced(whole) and not corrected else None
    if halves is not None:
        # "six on the east one six on east": said again over the noise; read once
        again = once(halves, lambda part: _understand_line(part, state, names, lang))
        if again is not None:
            return again
    legal: Sequence[Action] = (state or {}).get("legal_actions") or []
    head = None if _done(whole, legal) or corrected else first_step(text, lang)
    if head is not None:
        # "compra uma e joga o sete…" in the draw phase: the draw is done now, the rest
        # waits to be said again. Two moves of one phase are never cut down to one.
        step = _understand_line(head, state, names, lang)
        if isinstance(step, Act) and step.action in legal and step.action["type"] == "draw":
            return step
    kept = None if isinstance(whole, Act) or corrected else core(text, lang)
    if kept is not None:
        # A move said among talk: the move, when the talk around it names nothing else.
        moved = _understand_line(kept, state, names, lang)
        if isinstance(moved, Act):
            return moved
    clauses = [part for part in text.split(",") if part.strip()]
    # (a word alone after a comma is a tag, "…, coitado", never a question of its own)
    worded = [part for part in clauses if len(part.split()) > 1]
    if (
        _not_understood(whole)
        and len(clauses) > 1
        and worded
        and not corrected
        and not another_time(text)  # "na última partida a Zoé ganhou…, lembra?"
    ):
        # "read me my cards, I've left my glasses in the car": a question among talk,
        # answered (never a move: a clause cut from its line may lose a "no")
        chosen = by_sentence(worded, lambda part: _understand_line(part, state, names, lang), lang)
        if isinstance(chosen, Answer) and chosen.code != "legal_no":
            return chosen  # not "no move fits" of a clause cut from talk ("vous me donnerez…")
    return whole


def _done(understood: Understood, legal: Sequence[Action]) -> bool:
    """A legal action, or an answer: what the whole line asked for is settled."""
    return isinstance(understood, Answer) or (
        isinstance(understood, Act) and understood.action in legal
    )


# Refusals of a whole action named at the wrong moment: the words were understood.
_NAMED_NOT_NOW = frozenset({"already_drew", "not_your_turn", "must_draw_first"})


def _unplaced(understood: Understood) -> bool:
    """Cards or a move were named, and no action came of the words as one line (not
    talk: "grandad, the wild one, grandad" names nothing to do)."""
    return isinstance(understood, Refusal) and understood.code in (
        "no_move_for_card",
        "no_such_move",
        "card_not_held",
    )


_HIGHEST = frozenset({"highest", "biggest", "hoogste", "grootste", "maior"})
_LOWEST = frozenset({"lowest", "smallest", "laagste", "kleinste", "menor"})
_MORE = frozenset({"plus", "mais"})  # "la plus haute", "a mais alta"
_HIGH, _LOW = frozenset({"haute", "forte", "alta", "alto"}), frozenset({"basse", "baixa", "baixo"})


def _extreme_named(reading: Reading, state: Mapping[str, Any]) -> Reading:
    """ "throw the highest card", "de hoogste weg", "joga fora a mais alta": the hand's
    highest (or lowest) rank, wild cards aside, named as that rank."""
    if reading.cards or reading.question or not reading.concepts & {"discard", "play", "go_out"}:
        return reading
    words = reading.words
    highest = any(w in _HIGHEST for w in words) or any(
        a in _MORE and b in _HIGH for a, b in itertools.pairwise(words)
    )
    lowest = any(w in _LOWEST for w in words) or any(
        a in _MORE and b in _LOW for a, b in itertools.pairwise(words)
    )
    wild = state.get("wild_rank")
    ranks = [
        card_rank(str(card))
        for card in state.get("hand") or []
        if card != "JK" and card_rank(str(card)) != wild
    ]
    if highest == lowest or not ranks:
        return reading
    rank = max(ranks) if highest else min(ranks)
    return replace(reading, cards=(CardSpec(rank, None, None, len(words)),))


# Done, said as a clause of its own ("je finis, …", "klaar!"): not "I finish by discarding…"
_FINISHED = re.compile(
    r"\b(?:done|finished|fini|finis|termin[eé]|acabei|terminei|klaar)\s*[,.!;:…]", re.IGNORECASE
)


def _finishing_is_going_out(text: str, reading: Reading, state: Mapping[str, Any]) -> Reading:
    """Five Crowns has no end of turn to say: "je finis, je défausse le trois de pique",
    said with a card that can go out, goes out."""
    legal = state.get("legal_actions") or []
    if (
        state.get("game") != "five-crowns"
        or reading.question
        or reading.negated
        or not reading.cards
        or "end_turn" not in reading.concepts
        or _FINISHED.search(text) is None
        or not any(action["type"] == "go_out" for action in legal)
    ):
        return reading
    return replace(reading, concepts=(reading.concepts - {"end_turn"}) | {"go_out"})


def _not_understood(understood: Understood) -> bool:
    return isinstance(understood, Refusal) and understood.code == "not_understood"


def _understand_line(
    text: str,
    state: Mapping[str, Any] | None,
    names: Mapping[int, str] | None,
    lang: str | None,
) -> Understood:
    said_names = first_names(names or {})
    reading = read(text, lang, said_names)
    if (
        not reading.words
        or only_waiting(text)
        or only_excusing(reading.words)
        or (reading.has("aside") and not (reading.cards or reading.piles))
        or reading.has("past")
    ):
        # "what was I going to say": said to oneself; "vorige week won Ben…": another
        # evening's story: nothing asked of the assistant, no move
        return Refusal("not_understood", {"text": text.strip()[:80]})
    if state is not None:
        reading = _finishing_is_going_out(text, _extreme_named(reading, state), state)
    understood = _by_rules(text, reading, state, names or {})
    if (
        lang is not None
        and isinstance(understood, Refusal)
        and understood.code == "not_understood"
        and not reading.negated
        # "j'ai pas fini", "c'est pas toi": French "pas", never Dutch "ik pas" (I pass)
        and not any(word in LANGUAGE_ONLY.get(lang, {}) for word in reading.words)
    ):
        # Said in another language than the phone's ("tire uma carta" on an English
        # phone): the words' stems in every language; only a whole action, every word
        # placed, is taken from that reading (as it would be in the phone's language).
        anywhere = read(text, None, said_names)
        other = _by_rules(text, anywhere, state, names or {})
        if isinstance(other, Act) or getattr(other, "code", "") in _NAMED_NOT_NOW:
            # The action understood, or why it cannot be done now. Not a question: read
            # in every language's stems, talk turns into one ("come on, Ben" has
            # Portuguese "como" in it).
            return other
    if state is not None and _weak(understood, reading) and not reading.has("told"):
        # No rule placed the words: a question put another way may still be close to
        # lines people said for it (answered only; an action never comes from likeness).
        alike = recognise(reading, state, names or {}, lang)
        if alike is not None:
            return alike
    return understood


# What the rules say when a question's words named no move they know: a question of
# another kind, maybe ("can a queen start an empty corner?" is the corner rule).
_WEAK_FOR_A_QUESTION = frozenset(
    {"no_such_move", "card_not_held", "no_move_for_card", "not_discard_top", "legal_no"}
)


def _weak(understood: Understood, reading: Reading) -> bool:
    """Nothing understood, or, for a question, only that no move fits."""
    if isinstance(understood, Act):
        return False
    if understood.code == "not_understood":
        return isinstance(understood, Refusal)
    return reading.question and understood.code in _WEAK_FOR_A_QUESTION


def _by_rules(
    text: str, reading: Reading, state: Mapping[str, Any] | None, names: Mapping[int, str]
) -> Understood:
    """What the words, placed one by one, ask for."""
    answered = ask(reading, state, names)
    if answered is not None:
        return answered
    if state is None:
        return Refusal("no_game_yet")
    legal: Sequence[Action] = state.get("legal_actions") or []
    matches = _unique([action for action in legal if fits(action, reading, state)])
    if not matches and not reading.question and not reading.negated:
        out = _out_throwing(reading, state, legal)
        if out is not None:
            return Act(out)
    alone = _pile_alone(reading, legal) or _pointed_only(reading, legal)
    if alone is not None:
        return alone
    if reading.question and not is_request(reading) and not _offered(reading, matches):
        return _legality(reading, matches)
    if reading.negated or (matches and (_noise(reading, matches) or _remark(reading, matches))):
        return Refusal("not_understood", {"text": text.strip()[:80]})
    if _told_to_another(reading, matches, state, names):
        return Refusal("not_understood", {"text": text.strip()[:80]})  # "Ben, grab it"
    if (
        matches
        and reading.any("someone")
        and not (reading.cards or reading.piles or _I & set(reading.words))
    ):
        # "alguém me passa o guaraná": asked of someone else (not "je pioche et quelqu'un…")
        return Refusal("not_understood", {"text": text.strip()[:80]})
    if len(matches) == 1:
        return _go_out_check(matches[0], reading, legal)
    if matches:
        return _which(matches)
    not_now = _not_now(reading, state, legal)
    if not_now is not None:
        return not_now
    asked = _which_discard(reading, legal)
    return asked if asked is not None else _fallback(text, reading, state)


def _offered(reading: Reading, matches: list[Action]) -> bool:
    """A move said with a "?" and no word of asking, naming its card and where it goes
    ("the red queen on that king?", "le neuf de trèfle sur le dix de cœur ?"): offered
    tentatively, as a newcomer does; made (a rule is asked in words: "can the queen…?")."""
    return (
        reading.only_marked
        and len(matches) == 1
        and matches[0]["type"] in ("play", "move")
        and bool(reading.piles or any(card.onto for card in reading.cards))
        and not reading.concepts & (VERBS | _MAY)  # "l'est peut aller sur le nord ?" asks
        and not _GOES & set(reading.words)  # "o seis de paus entra no leste?" asks too
        and reading.words[-1] not in CONFIRMING_TAGS  # "seven of spades on west, no?" asks
        and not reading.negated
    )


_MAY = frozenset({"can", "fits", "should", "need"})
# Verbs of a card going somewhere that carry no concept ("go", "cabe", "past"… do).
_GOES = frozenset({"goes", "entra", "entram"})


def _told_to_another(
    reading: Reading, matches: list[Action], state: Mapping[str, Any], names: Mapping[int, str]
) -> bool:
    """A draw told to another player by name, nothing of the speaker's said ("the dog's
    got the remote again, Ben grab it"): theirs to do, not this seat's."""
    if not matches or any(action["type"] != "draw" for action in matches):
        return False
    if reading.cards or reading.piles or _I & set(reading.words):
        return False
    return _another_named(reading, state, names)


def _another_named(reading: Reading, state: Mapping[str, Any], names: Mapping[int, str]) -> bool:
    """The line says another player's name."""
    seat = state.get("seat")
    others = first_names(names, but=seat if isinstance(seat, int) else None)
    return bool(others & set(reading.words))


def _pile_alone(reading: Reading, legal: Sequence[Action]) -> Understood | None:
    """A pile said alone ("east?", "oost?"): the cards that fit on it are asked about, so
    which one is asked back (or, for one card, that it fits); nothing is played."""
    content = [word for word in reading.words if word not in FILLERS and word not in ARTICLES]
    if len(reading.piles) != 1 or reading.cards or reading.concepts & VERBS or len(content) > 2:
        return None
    code = reading.piles[0].code
    cards = sorted({str(a["card"]) for a in legal if a["type"] == "play" and a["pile"] == code})
    if len(cards) > 1:
        return Refusal("which_card", {"cards": cards})
    if cards:
        return Answer("legal_yes_play", {"card": cards[0], "pile": code})
    return None


def _pointed_only(reading: Reading, legal: Sequence[Action]) -> Understood | None:
    """ "this one", "celle-là", "essa aqui ó", "deze, daarboven": a card pointed at on a
    screen the assistant cannot see: which one is asked back among those that can go."""
    if reading.cards or reading.piles or reading.question or len(reading.words) > 4:
        return None
    if any(_unknown_word(word) for word in reading.words):
        return None  # "that's so unfair": said of something, not pointed at
    if not reading.has("there") or not reading.concepts <= {"there", "top"}:
        return None
    cards = sorted({card for action in legal if (card := card_of(action)) is not None})
    return Refusal("which_card", {"cards": cards}) if len(cards) > 1 else None


def _out_throwing(
    reading: Reading, state: Mapping[str, Any], legal: Sequence[Action]
) -> Action | None:
    """ "five, six, seven of hearts make a run, so I'm going out and discarding the king
    of spades": the meld's cards shown, then the one card thrown after the verb."""
    outs = [action for action in legal if action["type"] == "go_out"]
    if not outs or not reading.any("go_out"):
        return None
    thrown_at = [
        at
        for at, word in enumerate(reading.words)
        if concepts_of(word) & {"discard", "discard_pile"}  # "…on the discard", "pro lixo"
    ]
    if not thrown_at:
        return None
    thrown = [spec for spec in reading.cards if spec.at > thrown_at[-1]]
    if not thrown and reading.cards:
        # The verb after its card: "…en de heer weg", "…e o rei vai pro lixo"
        thrown = [reading.cards[-1]]
    wild = _wild_rank(state)
    fitting = [a for a in outs if len(thrown) == 1 and thrown[0].matches(str(a["discard"]), wild)]
    return fitting[0] if len(fitting) == 1 else None


def _not_now(reading: Reading, state: Mapping[str, Any], legal: Sequence[Action]) -> Refusal | None:
    """A move named while it is someone else's turn, or before the draw that must come
    first: said so, as the table would ("ok I'll take the queen" during Ben's turn)."""
    verbs = reading.concepts & VERBS
    if _source_only(reading):
        verbs = verbs | {"draw"}  # "deck", "la pioche": a draw, said by its pile
    # "harten heer in de hoek": a corner with no direction is a place too
    onto = reading.piles or any(spec.onto for spec in reading.cards) or reading.any("corner")
    moved = len(reading.piles) == 2 and not reading.cards  # "oost naar noord"
    if not (verbs or moved or (any(not spec.onto for spec in reading.cards) and onto)):
        return None  # "the queen of clubs?" alone may be asked
    if not reading.cards and any(_unknown_word(word) for word in reading.words):
        return None  # "mamie, tu veux encore du café ?": table talk, not a move
    hand = state.get("hand") or []
    from_hand = [spec for spec in reading.cards if not spec.onto]
    held = all(any(spec.matches(card, None) for card in hand) for spec in from_hand)
    if not held and not verbs & {"take", "draw"}:
        return None  # "you don't hold that" says more
    out_of_turn = _out_of_turn(state)
    if out_of_turn is not None:
        return out_of_turn
    drawing_only = bool(legal) and all(action["type"] == "draw" for action in legal)
    if drawing_only and not verbs & {"draw", "take"} and not reading.any("stock"):
        return Refusal("must_draw_first")  # "passo a vez" before drawing too
    return None


def _out_of_turn(state: Mapping[str, Any]) -> Refusal | None:
    """Said so when it is another seat's turn."""
    seat, current = state.get("seat"), state.get("current_seat")
    if isinstance(seat, int) and isinstance(current, int) and seat != current:
        return Refusal("not_your_turn", {"seat": seat, "current_seat": current})
    return None


def _wild_rank(state: Mapping[str, Any]) -> int | None:
    wild_rank = state.get("wild_rank")
    return wild_rank if isinstance(wild_rank, int) else None


def _source_only(reading: Reading) -> bool:
    """A draw pile said alone, as a move ("deck", "van de pot"), not asked about."""
    sources = {"stock", "discard_pile"}
    return (
        not reading.question
        and not (reading.cards or reading.piles)
        and bool(reading.concepts & sources)
        and reading.concepts <= sources | {"pile", "card", "you", "me"}  # "…, s'il vous plaît"
        and not any(_unknown_word(word) for word in reading.words)
    )


def _which_discard(reading: Reading, legal: Sequence[Action]) -> Refusal | None:
    """ "Discard", "je défausse": the move is named, not the card; ask which one."""
    if reading.concepts & VERBS != {"discard"} or reading.cards or reading.piles:
        return None
    if _mostly_unknown(reading):
        return None  # "discard the crisps"
    cards = sorted({str(a["card"]) for a in legal if a["type"] == "discard"})
    return Refusal("which_card", {"cards": cards}) if len(cards) > 1 else None


def _noise(reading: Reading, matches: list[Action]) -> bool:
    """A bare verb among words the assistant does not know: "pass the crisps"."""
    if any(card_of(action) or "pile" in action or "from" in action for action in matches):
        return False
    return _mostly_unknown(reading)


def _remark(reading: Reading, matches: list[Action]) -> bool:
    """A card of the hand named with no verb among words the assistant does not know:
    said about it, not thrown ("ce joker, je l'ai attendu toute la soirée")."""
    if reading.concepts & VERBS or any(a["type"] not in ("discard", "go_out") for a in matches):
        return False
    if _I & set(reading.words):
        return True  # "I love this joker", "this king, I've had it since the beginning"
    return _unknown_count(reading) >= 2


_I = frozenset({"i", "je", "j", "eu", "ik"})  # a subject, and no verb of a move: a remark


def _mostly_unknown(reading: Reading) -> bool:
    """As many words the assistant does not know as words it knows."""
    known = sum(is_known(word) and word not in PRONOUNS for word in reading.words)
    unknown = _unknown_count(reading)
    return unknown > 0 and unknown >= known  # only padding ("Ben, jij bent"): not noise


def _unknown_count(reading: Reading) -> int:
    return sum(_unknown_word(word) for word in reading.words)


def _unknown_word(word: str) -> bool:
    """A word the assistant does not know and that is not mere padding."""
    return len(word) > 2 and not is_known(word) and word not in FILLERS and word not in STRUCTURE


def _unique(actions: list[Action]) -> list[Action]:
    seen: list[Action] = []
    for action in actions:
        if action not in seen:
            seen.append(action)
    return seen


def _legality(reading: Reading, matches: list[Action]) -> Understood:
    """ "Can I play the seven on north?": yes or no, and nothing is played."""
    if reading.about_another:
        return Refusal("not_understood", {"text": " ".join(reading.words)[:80]})
    verbs = reading.concepts & VERBS
    if (
        not (reading.cards or reading.piles or verbs)
        or (not (reading.cards or reading.piles) and _mostly_unknown(reading))
        or not (reading.cards or reading.piles or reading.any("me", "can"))  # "anyone want…"
        # "who made this cake?": a card only guessed from a sound, and nothing of a move
        or (all(spec.heard for spec in reading.cards) and not reading.piles and not verbs)
        # "can somebody pass the chips?": asked of someone, about no card or pile
        or (reading.any("someone") and not (reading.cards or reading.piles))
        # "who wants another beer?": asked of the table, not whether the asker may
        or (reading.any("who") and not (reading.cards or reading.piles))
        # "vous me donnerez la recette ?": words of the kitchen, not of the game
        or (not (reading.cards or reading.piles) and _unknown_count(reading) >= 2)
    ):
        return Refusal("not_understood", {"text": " ".join(reading.words)[:80]})
    if len(matches) == 1:
        action = matches[0]
        kind = str(action["type"])
        if action.get("source") == "discard":
            kind = "draw_discard"
        params = {key: value for key, value in action.items() if key not in ("type", "source")}
        return Answer(f"legal_yes_{kind}", params)
    cards = {card_of(action) for action in matches}
    if len(cards) == 1 and all(action["type"] == "play" for action in matches):
        card = str(matches[0]["card"])
        return Answer("legal_yes_piles", {"card": card, "piles": [a["pile"] for a in matches]})
    going_out = [action for action in matches if action["type"] == "go_out"]
    if going_out and not reading.cards and reading.any("go_out"):
        # "posso bater?" with several ways out: yes (which card to throw is asked later)
        return Answer("legal_yes_go_out", {"discard": going_out[0]["discard"]})
    if matches:
        return _which(matches)
    return Answer("legal_no")


def _go_out_check(action: Action, reading: Reading, legal: Sequence[Action]) -> Understood:
    """A discard that could also go out: ask, since a plain discard would waste the way
    out; not when going out was refused ("…, I'm not going out") or the discard is "just"
    one."""
    if action["type"] != "discard" or _only(reading) or _refused_going_out(reading):
        return Act(action)
    card = action["card"]
    if any(a["type"] == "go_out" and a["discard"] == card for a in legal):
        return Refusal("go_out_or_discard", {"card": card})
    return Act(action)


_ONLY = frozenset({"just", "only", "juste", "seulement", "so", "apenas", "alleen", "gewoon"})


def _only(reading: Reading) -> bool:
    return bool(_ONLY & set(reading.words))


def _refused_going_out(reading: Reading) -> bool:
    """A word of going out said, and gone from the line's concepts: negated."""
    if reading.has("not_going_out"):
        return True  # said in a clause of its own, with its "not"
    return "go_out" not in reading.concepts and any(
        "go_out" in concepts_of(word) for word in reading.words
    )


def _which(candidates: list[Action]) -> Refusal:
    types = {action["type"] for action in candidates}
    named = [card_of(action) for action in candidates]
    cards = sorted({card for card in named if card is not None})
    if types == {"discard", "go_out"} and len(cards) == 1:
        return Refusal("go_out_or_discard", {"card": cards[0]})
    if types == {"play"} and len(cards) == 1:
        return Refusal("which_pile", {"card": cards[0], "piles": [a["pile"] for a in candidates]})
    if types == {"play"} or (types <= {"discard", "go_out"} and len(cards) == len(candidates)):
        return Refusal("which_card", {"cards": cards})
    return Refusal("which_move", {"count": len(candidates)})


# ------------------------------------------------------------------ fitting one action


def fits(action: Action, reading: Reading, state: Mapping[str, Any]) -> bool:
    """Whether ``action`` explains everything the line names and contradicts nothing."""
    kind = str(action["type"])
    verbs = reading.concepts & VERBS
    if (
        kind == "draw"
        and reading.has("discard_pile")
        and (verbs & {"draw", "take"} or _discard_is_a_noun(reading.words))
    ):
        verbs = verbs - {"discard"}  # "take the discard": the pile, not the verb
    elif "discard" in verbs and not reading.has("discard_pile"):
        verbs = verbs - {"take"}  # "get rid of the seven"
    if kind == "play" and (
        any(spec.onto and spec.code for spec in reading.piles)
        or any(spec.onto for spec in reading.cards)
    ):
        verbs = verbs - {"discard"}  # "gooi schoppen zeven op west", "…sur le sept": onto
    if kind == "play" and state.get("game") == "kings-corner":
        verbs = verbs - {"discard"}  # no discard in Kings: "chuck the king in a corner" plays it
    if kind == "play" and len(reading.cards) == 2:
        verbs = verbs - {"take"}  # "the red ten gets the black nine"
    if kind == "move" and (len(reading.piles) == 2 or len(reading.cards) == 2):
        verbs = verbs - {"take"}  # "take the east pile and put it on north", "…the 7 to the 8"
    if ("go_out" in verbs) != (kind == "go_out"):
        return False  # going out is only ever said
    if verbs - ALLOWED_VERBS[kind]:
        return False
    if kind == "play":
        return _fits_play(action, reading, state)
    if kind == "move":
        return _fits_move(action, reading, state)
    if kind in ("discard", "go_out"):
        return _fits_discard(action, reading, state, verbs)
    if kind == "draw":
        return _fits_draw(action, reading, state, verbs)
    return bool(verbs) and not reading.cards and not reading.piles  # the end of a turn


_BEFORE_NOUN = frozenset({"the", "la", "le", "l", "o", "a", "de", "from", "du", "do", "da"})


def _discard_is_a_noun(words: Sequence[str]) -> bool:
    """ "…from the discard", "la défausse", "o descarte": the pile, after an article."""
    return any(
        index > 0 and words[index - 1] in _BEFORE_NOUN and "discard_pile" in concepts_of(word)
        for index, word in enumerate(words)
    )


def _pile_fits(spec: PileSpec, pile: str, piles: Mapping[str, Sequence[str]]) -> bool:
    if spec.code is not None:
        return spec.code == pile
    corner = len(pile) == 2
    return not piles.get(pile) and corner == spec.corner


def _top(piles: Mapping[str, Sequence[str]], pile: str) -> str | None:
    cards = piles.get(pile) or []
    return str(cards[-1]) if cards else None


def _bottom(piles: Mapping[str, Sequence[str]], pile: str) -> str | None:
    cards = piles.get(pile) or []
    return str(cards[0]) if cards else None


def _split_cards(cards: Sequence[CardSpec]) -> tuple[list[CardSpec], list[CardSpec]]:
    """The cards said as what is played, and those said as where it goes ("on the seven")."""
    sources = [spec for spec in cards if not spec.onto]
    targets = [spec for spec in cards if spec.onto]
    if len(sources) > 1 and not targets:
        sources, targets = sources[:1], sources[1:]
    return sources, targets


def _splits(cards: Sequence[CardSpec]) -> list[tuple[list[CardSpec], list[CardSpec]]]:
    """The readings of two cards said with no "on" between: either may be the target
    ("the red ten gets the black nine")."""
    sources, targets = _split_cards(cards)
    if len(cards) == 2 and not any(spec.onto or spec.rank is None for spec in cards):
        return [(sources, targets), (targets, sources)]
    return [(sources, targets)]


def _fits_play(action: Action, reading: Reading, state: Mapping[str, Any]) -> bool:
    return any(
        _fits_play_as(action, reading, state, sources, targets)
        for sources, targets in _splits(reading.cards)
    )


def _fits_play_as(
    action: Action,
    reading: Reading,
    state: Mapping[str, Any],
    sources: list[CardSpec],
    targets: list[CardSpec],
) -> bool:
    piles: Mapping[str, Sequence[str]] = state.get("piles") or {}
    if sources and _vague(sources[0]) and not reading.concepts & VERBS:
        return False  # "♥♠" alone names no card to play
    if len(sources) != 1 or not sources[0].matches(str(action["card"])):
        return False
    pile = str(action["pile"])
    if any(spec.source for spec in reading.piles):
        return False
    if reading.piles and not _pile_fits(reading.piles[-1], pile, piles):
        return False
    top = _top(piles, pile)
    return all(top is not None and spec.matches(top) for spec in targets)


def _vague(spec: CardSpec) -> bool:
    """Only a suit or a colour: a card to play only when a verb says so."""
    return spec.rank is None and not spec.joker and not spec.wild and not spec.one


def _fits_move(action: Action, reading: Reading, state: Mapping[str, Any]) -> bool:
    piles: Mapping[str, Sequence[str]] = state.get("piles") or {}
    start, end = str(action["from"]), str(action["to"])
    said = list(reading.piles)
    sources, targets = _split_cards(reading.cards)
    if len(sources) > 1:
        return False
    if len(said) > 2:
        return False
    if len(said) == 2:
        first, second = said
        if second.source and not first.source:
            first, second = second, first
        if not (_pile_fits(first, start, piles) and _pile_fits(second, end, piles)):
            return False
    elif len(said) == 1:
        spec = said[0]
        if spec.source or (not spec.onto and (targets or not sources)):
            if not _pile_fits(spec, start, piles):
                return False
            if not reading.has("move") and not targets:
                return False
        elif not _pile_fits(spec, end, piles):
            return False
        elif not (sources or reading.has("move")):
            return False  # "on N" alone names where, not what: no pile is moved on a guess
    elif not (sources and (targets or reading.has("move"))):
        return False
    if sources:  # the moved pile, by its bottom card or the card on top of it
        ends = [card for card in (_bottom(piles, start), _top(piles, start)) if card is not None]
        if not any(sources[0].matches(card) for card in ends):
            return False
    top = _top(piles, end)
    return all(top is not None and spec.matches(top) for spec in targets)


def _fits_discard(
    action: Action, reading: Reading, state: Mapping[str, Any], verbs: frozenset[str]
) -> bool:
    if reading.piles:
        return False
    card = card_of(action)
    wild_rank = state.get("wild_rank")
    if not reading.cards:
        return action["type"] == "go_out" and "go_out" in verbs
    if len(reading.cards) != 1 or card is None:
        return False
    if _vague(reading.cards[0]) and not verbs:
        return False
    return reading.cards[0].matches(card, wild_rank if isinstance(wild_rank, int) else None)


# A source named alone in the draw phase: "la défausse", "the discard pile, please".
_NAMING_A_SOURCE = frozenset({"discard_pile", "discard", "card", "there", "me", "top", "pile"})
_ASKING_FOR_A_CARD = frozenset({"card", "stock", "pile", "top", "me", "new", "another"})
_NEEDING = frozenset({"need", "have", "should"})  # "I need a card", "il me faut une carte"


# "that one", "cette carte", "essa carta", "die kaart": a card pointed at, so one in sight.
_POINTING = frozenset({"that", "this", "celle", "cette", "essa", "esta", "aquela", "die", "deze"})
_POINTED = frozenset({"one", "card", "carte", "la", "ci", "carta", "ai", "ali", "kaart", "daar"})
# Words for the stock itself, not any pile: "that one off the deck" is the stock's.
_STOCK_ITSELF = frozenset(
    {"stock", "deck", "pack", "blind", "pioche", "talon", "paquet", "baralho", "pot", "trekstapel"}
)


def _points_at_a_card(words: Sequence[str]) -> bool:
    pointing = any(
        word in _POINTING and following in _POINTED for word, following in itertools.pairwise(words)
    )
    return pointing and not _STOCK_ITSELF.intersection(words)


def _fits_draw(
    action: Action, reading: Reading, state: Mapping[str, Any], verbs: frozenset[str]
) -> bool:
    if reading.piles:
        return False
    source = action.get("source")
    top = state.get("discard_top")
    named_top = bool(reading.cards) and isinstance(top, str)
    if reading.cards and not (
        named_top and len(reading.cards) == 1 and reading.cards[0].matches(str(top))
    ):
        return False
    if source == "discard":
        if reading.cards and reading.has("discard_pile"):
            return True  # "the queen from the discard, please"
        if not verbs and reading.has("discard_pile") and not reading.question:
            return reading.concepts <= _NAMING_A_SOURCE  # "la défausse", "van de aflegstapel"
        if "take" in verbs and reading.has("there") and not reading.any("card", "stock"):
            return True  # "I'll have that", "je prends ça": the card everyone sees
        if "take" in verbs and _points_at_a_card(reading.words):
            return True  # "grab that one off the pile": only the discard's card can be seen
        if verbs & {"take", "draw"} and reading.has("face_up"):
            return True  # "die open kaart wil ik", "la carte retournée": the discard's
        if not verbs and reading.cards and not reading.question:
            # "the queen (for me)", "q from pile": the top one (no stock card is known by name)
            return reading.concepts <= {"card", "there", "me", "stock", "pile"}
        if _STOCK_ITSELF.intersection(reading.words) and not reading.has("discard_pile"):
            return False  # "…that queen, me neither, I'll take one off the deck": the stock
        return bool(verbs) and (bool(reading.cards) or reading.has("discard_pile"))
    if reading.any("discard_pile", "face_up") or reading.cards:
        return False
    if _points_at_a_card(reading.words):
        return False
    if not verbs:  # "a card, please", "een kaart uit de pot": a card and nothing else asked for
        allowed = _ASKING_FOR_A_CARD | (_NEEDING if reading.has("need") else frozenset())
        only_cards = reading.concepts <= allowed and reading.any(
            "card", "stock"
        )  # "top of the deck, please", "a new card", "preciso de uma carta"
        return only_cards and not reading.question
    return bool(verbs & {"draw", "take"}) and ("draw" in verbs or reading.any("card", "stock"))


# ------------------------------------------------------------------ when nothing fits


def _fallback(text: str, reading: Reading, state: Mapping[str, Any]) -> Understood:
    hand: Sequence[str] = state.get("hand") or []
    if any(spec.heard for spec in reading.cards):
        return Refusal("not_understood", {"text": text.strip()[:80]})  # a card only guessed
    legal: Sequence[Action] = state.get("legal_actions") or []
    drawn = bool(legal) and all(action["type"] != "draw" for action in legal)  # done already
    whole = _whole_action(reading, str(state.get("game")))
    clear = not any(_unknown_word(word) for word in reading.words)  # "on south waste": no
    if whole is not None and clear and (card_of(whole) is None or card_of(whole) in hand):
        out_of_turn = _out_of_turn(state)  # "l'est sur le nord" while Ben plays
        if out_of_turn is not None:
            return out_of_turn
        if whole["type"] == "draw" and drawn:
            return Refusal("already_drew")  # "compra uma carta" while discarding: said so
        return _go_out_check(whole, reading, legal)  # a discard that could go out: asked
    top = state.get("discard_top")
    verbs = reading.concepts & VERBS
    on_top = isinstance(top, str) and any(spec.matches(top) for spec in reading.cards)
    # "discard" said as the pile is no verb ("take the jack from the discard"); "je
    # défausse le trois" throws
    noun = _discard_is_a_noun(reading.words)
    thrown = verbs - ({"discard"} if noun else set())
    taking = verbs & {"take", "draw"} and not thrown & {"discard", "go_out"}
    if drawn and taking and (on_top or noun):
        return Refusal("already_drew")  # "je prends la dame de carreau" while discarding
    if reading.cards and taking and isinstance(top, str) and not on_top:
        return Refusal("not_discard_top", {"card": reading.cards[0].shown(), "top": top})
    wild = _wild_rank(state)
    for spec in reading.cards:
        if spec.onto:
            continue
        if not any(spec.matches(held, wild) for held in hand):
            if not verbs and spec.rank is None and len(text.split()) >= 5:
                # "hoje a sorte não tá comigo, só vem estrela": a suit in a sentence, no
                # verb of a move: luck talked about, not a card asked for
                return Refusal("not_understood", {"text": text.strip()[:80]})
            if not verbs and _lies_where_said(spec, reading, state):
                # "die harten zeven ligt al de hele avond op oost": the table spoken of
                return Refusal("not_understood", {"text": text.strip()[:80]})
            return Refusal("card_not_held", {"card": spec.shown()})
        return Refusal("no_move_for_card", {"card": spec.shown()})
    crowns = state.get("game") == "five-crowns"
    no_way_out = bool(legal) and all(action["type"] != "go_out" for action in legal)
    going_out = "go_out" in verbs and verbs <= {"go_out", "play"}  # "go out!" ("go": play)
    if going_out and not reading.cards and clear and crowns and no_way_out:
        return Refusal("cannot_go_out")  # "bati!" with cards that do not all meld yet
    if reading.cards or ((reading.piles or verbs) and clear):
        return Refusal("no_such_move")  # not "my sister moved up north": table talk
    return Refusal("not_understood", {"text": text.strip()[:80]})


def _lies_where_said(spec: CardSpec, reading: Reading, state: Mapping[str, Any]) -> bool:
    """A card not held, said with the pile it lies in among words the assistant does not
    know: talk about the table ("esse dez de copas no sudoeste tá lá desde o começo")."""
    piles: Mapping[str, Sequence[str]] = state.get("piles") or {}
    codes = [pile.code for pile in reading.piles if pile.code is not None]
    lying = any(spec.matches(str(card)) for code in codes for card in piles.get(code) or [])
    return lying and any(_unknown_word(word) for word in reading.words)


def _whole_action(reading: Reading, game: str) -> Action | None:
    """The action the words name in full, legal or not (the table will say why not)."""
    verbs = reading.concepts & VERBS
    sources, targets = _split_cards(reading.cards)
    card = sources[0].text() if len(sources) == 1 and not targets else None
    codes = [spec.code for spec in reading.piles if spec.code is not None]
    if game == "kings-corner":
        # "ik pak nog een kaart": taking a card is drawing one
        drawing = "draw" in verbs or (
            "take" in verbs and (reading.any("card", "stock") or not (reading.cards or codes))
        )  # "pakken" alone, too
        if verbs & {"discard", "go_out"} or ("take" in verbs and not drawing):
            return None
        if drawing and not reading.cards and not codes:
            return {"type": "draw"}
        if "end_turn" in verbs and not reading.cards and not codes:
            return {"type": "end_turn"}
        if len(codes) == 2 and not reading.cards and len(reading.piles) == 2:
            return {"type": "move", "from": codes[0], "to": codes[1]}
        if card and len(codes) == 1 and len(reading.piles) == 1:
            return {"type": "play", "card": card, "pile": codes[0]}
        return None
    if game != "five-crowns" or reading.piles:
        return None
    if not reading.cards and (verbs & {"draw", "take"} or _source_only(reading)):
        if reading.has("discard_pile"):  # "une carte du talon, s'il vous plaît": said by its pile
            return {"type": "draw", "source": "discard"}
        if "draw" in verbs or reading.any("card", "stock"):
            return {"type": "draw", "source": "stock"}
    if card and "go_out" in verbs:
        return {"type": "go_out", "discard": card}
    if card and "discard" in verbs and not verbs & {"take", "draw"}:
        return {"type": "discard", "card": card}
    return None
