"""Questions the assistant answers from the seat's view and the public table's names.

Each question is recognised by the concepts the line carries (``words.CONCEPTS``), so
"who's winning?", "qui gagne ?", "quem está ganhando?" and "wie wint er?" are one
question. Answers are codes with parameters, worded by the asker's own screen; the asker
is spoken to ("It's your turn"), never named in the third person.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.cards import CardSyntaxError, parse_card
from engine.five_crowns.deck import JOKER_PENALTY, WILD_PENALTY, card_penalty
from engine.kings_corner.tables import PENALTY, RANK
from services.assistant.hint import suggest
from services.assistant.outcomes import Answer, Refusal, Understood, card_of
from services.assistant.reading import ARTICLES, RANK_TEXT, Reading
from services.assistant.words import (
    BACK_WORDS,
    FILLERS,
    JOKER_WORDS,
    WILD_WORDS,
    concepts_of,
    first_names,
    is_known,
    normalize,
)

State = Mapping[str, Any]
KINGS, CROWNS = "kings-corner", "five-crowns"


def ask(reading: Reading, state: State | None, names: Mapping[int, str]) -> Understood | None:
    """The answer when the line is a question the assistant knows; None when it is not."""
    if reading.has("told"):
        return None  # "Zoé heeft nog maar twee kaarten, spannend": news of her, not asked
    for recognise in _QUESTIONS:
        answered = recognise(reading, state, names)
        if answered is not None:
            return answered
    return None


def _acts(reading: Reading) -> bool:
    """The line carries a verb of its own ("take", "play"…), as actions do."""
    return reading.any("draw", "take", "discard", "move", "end_turn", "go_out")


def _me(reading: Reading) -> bool:
    return reading.any("me")


def _plays(reading: Reading) -> bool:
    """The line opens with a verb of playing ("jogo o coringa?"), not "…nesse jogo?"."""
    return "play" in concepts_of(reading.lead_word)


def _said(reading: Reading, concept: str) -> bool:
    """A word of the line means ``concept`` itself (not only the line as a whole)."""
    return any(concept in concepts_of(word) for word in reading.words)


def _seat(state: State) -> int | None:
    seat = state.get("seat")
    return seat if isinstance(seat, int) else None


# ------------------------------------------------------------------ help, hint, moves


def help_answer(state: State | None) -> Answer:
    """What the assistant understands, for this game."""
    return Answer("help", {"game": state.get("game") if state else None})


_SCREEN = frozenset(
    {"tv", "tele", "television", "televisao", "televisie", "tablet", "tablette", "bot", "robot"}
)


def _to_the_assistant(reading: Reading) -> bool:
    """Said to the assistant: "comment je te parle ?", "how do I talk to the TV?", "what
    am I supposed to say to this thing?"."""
    return (
        reading.any("you")
        or "te" in reading.words
        or bool(_SCREEN & set(reading.words))
        or any(
            word == "to" and {"it", "thing"} & set(reading.words[at + 1 : at + 3])
            for at, word in enumerate(reading.words)
        )
    )


def _help(reading: Reading, state: State | None, names: Mapping[int, str]) -> Understood | None:
    if reading.has("what", "say", "can") and not reading.any("go_out", "meld", "score", "value"):
        return help_answer(state)
    to_you = _to_the_assistant(reading)
    talk = reading.has("say") and to_you and reading.any("how", "what")  # "how do I talk to you?"
    able = reading.has("what", "you") and reading.any("can") and len(reading.words) <= 5
    understood = reading.has("understand", "you") and not reading.any("build", "card")
    asked = talk or able or understood  # "what can you do?", "tu comprends quoi ?"
    said_to_you = reading.has("what", "say", "should") and to_you
    # "what should I say to you?", "qu'est-ce que je dois te dire ?"
    over = reading.any("end_turn", "when")  # "how do you know when it's over?": a rule
    asked = asked or (  # "how does this assistant work?", "o que o assistente faz?"
        reading.any("assistant") and reading.question and reading.any("how", "what", "works")
    )
    if (asked or said_to_you) and not (reading.cards or reading.piles or over):
        # "tu comprends quoi ?", "what do you understand?"
        return help_answer(state)
    if not reading.any("help") or reading.any("hint"):
        return None
    if reading.any("what", "should") and reading.any("play"):
        return None  # "help me: what should I play?" is a hint
    return help_answer(state)


def _hint(reading: Reading, state: State | None, names: Mapping[int, str]) -> Understood | None:
    if reading.any("first", "start", "every") and reading.any("draw", "take"):
        return None  # "il faut piocher avant ?", "…aan het begin altijd pakken?": the rule
    if reading.any("need", "have") and reading.any("go_out") and not reading.cards:
        return None  # "what must I have to go out?": the rule
    if reading.any("say") and _to_the_assistant(reading):
        return None  # "what should I say to you?": the help
    asked = (
        reading.any("hint")
        or (  # "je me débarrasse de quoi ?", "what do I throw?": what to do, asked
            reading.question
            and reading.any("what")
            and _me(reading)
            and reading.any("discard", "draw", "move")
            and not (reading.cards or reading.piles)
            and not reading.any("can", "who", "when", "how", "have", "options")
        )
        or (reading.has("help", "what") and reading.any("play"))
        or (
            reading.has("should")
            and reading.question
            and (reading.any("what", "play", "move") or _acts(reading))
        )  # not "de joker moet weg": said, not asked
        # "je fais quoi ?", "what do I have to do first?" (not "what do I have?")
        or (
            reading.has("do")
            and not reading.any("turn", "round")
            and not (reading.any("have") and not reading.any("need"))
        )
    )
    asked = asked or (  # "je joue quoi ?", "wat speel ik?": what to play, asked
        reading.question
        and reading.has("what", "play")
        and _me(reading)
        and sum(word not in _PADDING for word in reading.words) <= 4  # "ok what do I play"
        and reading.lead_word not in _ME_NOW_STARTS  # "sou eu que jogo?" asks whose turn
        and not {"are", "sont", "sao", "zijn"} & set(reading.words)  # "what are my plays?"
        and not (reading.cards or reading.piles or reading.any("can", "options"))
        and not _CARDS_PLURAL & set(reading.words)  # "which card do I play?" is one
    )
    scored = reading.any("score") and not reading.any("discard")  # "…to keep my points down"
    if not asked or scored or reading.any("value", "mean", "meld", "when"):
        return None
    if WILD_WORDS & set(reading.words) and not (_me(reading) or _acts(reading)):
        return None  # "wilds are what now?": what is wild, not what to do
    if reading.any("empty") and not reading.cards and _general(reading):
        return None  # "what do I do with an empty space?": the rule
    asked_done = reading.any("you", "can") and not reading.asks_opinion()
    if (reading.cards or reading.piles) and asked_done and not reading.any("what"):
        return None  # "zou je schoppen zeven op west willen leggen?", "can I play the two?"
    if reading.cards and reading.piles and not reading.question:
        return None  # "ik zou klaveren zes op oost spelen": said, not asked
    if state is None:
        return Refusal("no_game_yet")
    return hint_answer(state)


_CARDS_PLURAL = frozenset({"cards", "cartes", "cartas", "kaarten"})


def hint_answer(state: State) -> Answer:
    """One good move for the seat, or whose turn it is when it has none."""
    action = suggest(state)
    if action is None:
        current = state.get("current_seat")
        return (
            Answer("hint_wait", {"seat": current})
            if isinstance(current, int)
            else Answer("hint_none")
        )
    kind = action["type"]
    if kind == "draw":
        kind = "draw_discard" if action.get("source") == "discard" else "draw"
    params = {key: value for key, value in action.items() if key not in ("type", "source")}
    if kind == "draw_discard":
        params["card"] = state.get("discard_top")
    return Answer(f"hint_{kind}", params)


def _moves(reading: Reading, state: State | None, names: Mapping[int, str]) -> Understood | None:
    options = reading.has("options") and _me(reading) and not reading.cards
    options = options or (  # "which cards fit somewhere?", "welke kaarten passen ergens?"
        reading.question
        and reading.has("what", "card", "fits")
        and not reading.cards
        and all(spec.code for spec in reading.piles)
    )  # "which of my cards fit on east?": there
    # "what may go on a red seven?": the cards that fit there
    options = options or (
        reading.has("what", "can") and bool(reading.cards) and all(s.onto for s in reading.cards)
    )
    options = options or (  # "which of my cards can go somewhere?"
        reading.question
        and reading.has("what", "card", "can", "me")
        and reading.any("play", "turn", "fits")
        and not (reading.cards or reading.piles)
    )
    options = options or (  # "what can go on east?": my cards that fit on it
        reading.question
        and reading.has("what", "can")
        and not reading.cards
        and len(reading.piles) == 1
        and reading.piles[0].code is not None
        and reading.piles[0].onto
    )
    if not options and not (
        reading.has("what", "can") and _me(reading) and reading.any("play", "move")
    ):
        if not (reading.has("what") and reading.any("play") and reading.question):
            return None
        if reading.cards or reading.piles or _acts(reading):
            return None
        if reading.any("corner", "side", "empty", "pile", "another", "meld", "works"):
            return None  # "what can go in a corner?", "o que é uma sequência?": rules
    if reading.cards and not all(spec.onto for spec in reading.cards):
        return None
    if reading.any("build") or (
        reading.any("pile", "card") and reading.any("another") and not reading.cards
    ):
        return None  # "what goes on what?", "a pile onto another?", "a card on another?"
    spot = reading.any("empty", "side", "corner") and not reading.cards
    if spot and not any(spec.code for spec in reading.piles) and not reading.any("fits"):
        return None  # "what can I put on an empty spot?" is a rule
    if state is None:
        return Refusal("no_game_yet")
    legal: Sequence[dict[str, Any]] = state.get("legal_actions") or []
    targets = [spec for spec in reading.cards if spec.onto]
    piles: Mapping[str, Sequence[str]] = state.get("piles") or {}
    wanted = {spec.code for spec in reading.piles if spec.code}

    def aimed(action: dict[str, Any]) -> bool:
        pile = action.get("pile")
        if pile is None:
            return not (targets or wanted)
        cards_there = piles.get(str(pile)) or []
        top = cards_there[-1] if cards_there else None
        if wanted and pile not in wanted:
            return False
        return all(top is not None and spec.matches(str(top)) for spec in targets)

    cards = sorted({card for a in legal if aimed(a) and (card := card_of(a)) is not None})
    return Answer("moves", {"cards": cards}) if cards else Answer("moves_none")


# ------------------------------------------------------------------ counts and the table


def _named_seat(reading: Reading, names: Mapping[int, str]) -> int | None:
    """The seat of the one player whose name (its first word) the line says."""
    said = set(reading.words)
    found = [
        seat
        for seat, name in names.items()
        if (parts := normalize(name)) and len(parts[0]) >= 2 and parts[0] in said
    ]
    return found[0] if len(found) == 1 else None


def _counted(code: str, count: int, **params: Any) -> Answer:
    """One code per plural form none/one/many, so every language can word it right."""
    if count == 0:
        return Answer(f"{code}_none", params)
    if count == 1:
        return Answer(f"{code}_one", params)
    return Answer(code, {**params, "count": count})


def _counts(reading: Reading, state: State | None, names: Mapping[int, str]) -> Understood | None:
    everyone_has = reading.has("what", "everyone", "have") and not reading.cards
    # "cards left for Ben?": a named player's count without "how many"
    everyone_has = everyone_has or (
        reading.question
        and reading.has("left")
        and reading.any("card", "stock")
        and not (reading.cards or reading.piles)  # not "…the east pile over onto north"
        and (_named_seat(reading, names) is not None or reading.any("stock"))
    )  # "cards left in the deck?"
    everyone_has = everyone_has or (
        reading.question
        and reading.has("card")
        and reading.any("stock")
        and not reading.cards
        and not reading.any("what", "take", "discard", "can", "should", "how", "when", "where")
    )  # "cards in the draw pile?"
    everyone_has = everyone_has or (
        reading.question
        and reading.has("card")
        and (_named_seat(reading, names) is not None or reading.any("everyone"))
        and not (reading.cards or reading.piles)
        and not reading.any("what", "can", "take", "discard", "draw", "how", "when", "where")
        and len(reading.words) <= 5
    )  # "Zoé's cards?", "de kaarten van Zoé?", "card totals for everyone?"
    stock_named = any(
        "stock" in (found := concepts_of(word))
        and ("draw" not in found or (at and reading.words[at - 1] in ARTICLES))
        for at, word in enumerate(reading.words)
    )  # "pioche", "draw": the verb, not the pile ("la pioche" is)
    everyone_has = everyone_has or (
        reading.question
        and stock_named
        and reading.any("empty", "end_turn")
        and not (reading.cards or reading.piles or reading.any("side", "corner", "when", "how"))
    )  # "is the deck nearly empty?", "o monte tá quase acabando?"
    everyone_has = everyone_has or (
        reading.question
        and reading.concepts == {"stock"}
        and not (reading.cards or reading.piles)
        and len(reading.words) <= 2
    )  # "stock?", "la pioche ?": what is left in it
    if reading.any("side", "corner") and not reading.any("how_many"):
        return None  # "e se uma pilha do lado ficar vazia?": a rule
    if _priced_before_if(reading):
        return None  # "how much is the joker if I'm left holding it?": its price
    if not (reading.any("how_many") or everyone_has) or reading.any("meld"):
        return None  # "how many cards in a run?" is a rule
    if (
        not everyone_has
        and not reading.any("card", "left", "stock", "draw")
        and not (reading.any("hand") and _me(reading))  # "how many have I got in my hand?"
        and not (reading.any("have") and _named_seat(reading, names) is not None)
    ):
        return None
    if reading.any("value") or (reading.any("score") and not reading.any("card")):
        return None
    if reading.any("score") and (WILD_WORDS & set(reading.words) or reading.cards):
        return None  # "hoeveel punten is een wilde kaart?" asks what it is worth
    if WILD_WORDS & set(reading.words) and not reading.any("card"):
        return None  # "se eu ficar com um curinga, perco quanto?": a price, not a count
    if (
        _me(reading)
        and reading.any("draw")
        and not (stock_named or reading.any("left", "everyone"))
    ):
        return None  # "how many cards do I draw?": the rule
    if state is None:
        return Refusal("no_game_yet")
    seat = _named_seat(reading, names)
    scored = state.get("game") == CROWNS or bool((state.get("options") or {}).get("session"))
    has = any("have" in concepts_of(word) for word in reading.words if word != "a")  # not "à"
    if seat is not None and scored and not (has or reading.any("card", "stock", "draw", "left")):
        return None  # "Ben's on how many?", "op hoeveel staat Ben?": points (standings)
    stock = reading.any("stock", "draw") or (
        reading.any("left") and not _me(reading) and seat is None and not reading.any("everyone")
    )
    if stock and seat is None:
        return stock_answer(state)
    return cards_answer(reading, state, names)


def stock_answer(state: State) -> Answer:
    """How many cards are left to draw."""
    return _counted("stock_count", int(state.get("stock_count") or 0))


def cards_answer(reading: Reading, state: State, names: Mapping[int, str]) -> Answer:
    """How many cards the player the line names holds (the asker, or everyone)."""
    counts: Sequence[int] = state.get("hand_counts") or []
    seat = _named_seat(reading, names)
    me = _seat(state)
    if seat is not None and seat != me and 0 <= seat < len(counts):
        return _counted("cards_of", counts[seat], seat=seat)
    if (seat is not None and seat == me) or (_me(reading) and not reading.any("everyone")):
        return _counted("cards_you", len(state.get("hand") or []))
    listed = [
        f"{names.get(other, other + 1)}: {count}"
        for other, count in enumerate(counts)
        if other != me
    ]
    return Answer("cards_all", {"counts": listed})


def _discard_top(
    reading: Reading, state: State | None, names: Mapping[int, str]
) -> Understood | None:
    face_up = reading.has("face_up") and not (
        reading.cards or reading.piles or reading.any("corner", "side", "empty", "pile")
    )  # "what's face up?", "welke kaart ligt er open?"
    thrown = (  # "which card was just thrown away?", "welke kaart is net weggegooid?"
        reading.question
        and reading.has("what", "card", "discard")
        and not (_me(reading) or reading.cards or reading.piles)
    )
    face_up = face_up or thrown
    if not (reading.has("discard_pile") or face_up) or reading.any("take", "draw", "can", "should"):
        return None
    if not (reading.question or reading.any("what", "top")):
        return None
    if reading.any("meld", "value", "score", "how_many"):
        return None
    if reading.cards and reading.asks_it_done():
        return None  # "wilt u de klaveren negen voor mij afleggen?": the discard, asked for
    if state is None:
        return Refusal("no_game_yet")
    return discard_top_answer(state)


def discard_top_answer(state: State) -> Answer:
    """The card face up on the discard pile."""
    top = state.get("discard_top")
    return Answer("discard_top", {"card": top}) if top else Answer("discard_empty")


def _pile_top(reading: Reading, state: State | None, names: Mapping[int, str]) -> Understood | None:
    # "what's on north?", "is north empty?", "is there anything on north?"
    asked = (
        reading.any("what", "empty")
        or (reading.any("top") and len(_content(reading)) <= 3)  # "top of SW?"
        or ("there" in reading.concepts and len(reading.words) <= 6)
        or bool(_ANYTHING & set(reading.words))  # "anything on SE?"
    )
    named = [spec for spec in reading.piles if spec.code is not None]  # not "spot" alone
    if not (reading.question and asked and len(named) == 1):
        return None
    if reading.cards or _acts(reading) or reading.any("play", "can") or state is None:
        return None
    code = named[0].code
    piles: Mapping[str, Sequence[str]] = state.get("piles") or {}
    if code is None or code not in piles:
        return None
    cards = piles[code]
    return (
        Answer("pile_top", {"pile": code, "card": cards[-1]})
        if cards
        else Answer("pile_empty", {"pile": code})
    )


def _turn(reading: Reading, state: State | None, names: Mapping[int, str]) -> Understood | None:
    if reading.any("go_out", "score", "meld", "value", "last", "draw") or reading.cards:
        return None
    if _unknown_words(reading, names) >= 2:
        return None  # "can you turn it up a little, I can't hear the telly": to the room
    if reading.has("card", "can") or reading.has("what", "can", "play"):
        return None  # "which of my cards can go somewhere?", "what can I play?": not a turn
    if reading.any("do", "build"):
        return None  # "what do I do on my turn?" is a rule
    whose = reading.any("turn") and (
        reading.any("who")
        or (reading.question and (_me(reading) or _named_seat(reading, names) is not None))
    )  # "c'est à Ben ?" asks whose turn too
    plays = (
        reading.has("who")
        and reading.any("play")
        and not reading.any("card")
        and all(is_known(word) or word in FILLERS or len(word) <= 2 for word in reading.words)
    )  # "who plays?", not "quem vai fazer a janta?"
    short = (
        reading.has("who")
        and len([w for w in reading.words if w not in _PADDING and w != "right"]) <= 4
        and reading.question
        and all(is_known(word) or word in FILLERS for word in reading.words)
    )  # "who's up?", not "who ordered pizza?"
    me_now = (  # "is it me?", "c'est à moi ?", "sou eu?", "ben ik?", "c'est bien à moi ?"
        reading.question
        and sum(word not in FILLERS and word not in _SOFTENERS for word in reading.words) <= 4
        and _me(reading)
        and reading.lead_word in _ME_NOW_STARTS
        and not reading.piles
    )
    if reading.any("corner", "side", "pile", "empty"):
        return None  # "qu'est-ce qui va dans les coins ?" is a rule
    me_playing = (  # "speel ik nu?", "do I play?"
        reading.question
        and len(reading.words) <= 4
        and _me(reading)
        and reading.any("play")
        and not reading.any("what", "can", "should", "how", "where", "options")
        and not (reading.cards or reading.piles)
    )
    named_playing = (  # "is Ben playing?", "o Ben tá jogando?", "is Ben aan het spelen?"
        reading.question
        and reading.any("play")
        and _named_seat(reading, names) is not None
        and not (reading.cards or reading.piles or reading.any("what", "can", "how", "when"))
        and len(reading.words) <= 6
    )
    terse = (  # "turn?", "beurt?", "tour ?": the one word asked
        reading.question
        and "turn" in reading.concepts
        and reading.concepts <= {"turn", "round", "now"}
        and len(_content(reading)) <= 2
    )
    if not (whose or plays or short or me_now or me_playing or named_playing or terse):
        return None
    if reading.any("when", "how", "mean", "end_turn"):
        return None
    if state is None:
        return Refusal("no_game_yet")
    return turn_answer(state)


def _content(reading: Reading) -> list[str]:
    """The line's words less padding (fillers, articles, "now", "ok")."""
    return [
        word
        for word in reading.words
        if word not in FILLERS and word not in _PADDING and word not in _ARTICLE_WORDS
    ]


_ARTICLE_WORDS = frozenset({"the", "a", "le", "la", "l", "o", "de", "het", "een"})


def turn_answer(state: State) -> Answer:
    """Whose turn it is, said to the asker ("it's your turn")."""
    current = state.get("current_seat")
    if not isinstance(current, int):
        return Answer("turn_none")
    if current == _seat(state):
        return Answer("turn_you")
    return Answer("turn", {"seat": current})


_ANYTHING = frozenset({"anything", "something", "quelque", "algo", "alguma", "iets"})
_PADDING = frozenset({"ok", "okay", "oke", "so", "now", "then", "agora", "maintenant", "nu", "dan"})
_SOFTENERS = frozenset({"bien", "vraiment", "really", "mesmo", "echt", "wel", "nu", "la"})
_ME_NOW_STARTS = frozenset({"is", "am", "c", "sou", "e", "ben", "moi", "me", "moet", "must", "a"})


def _holding(reading: Reading, state: State | None, names: Mapping[int, str]) -> Understood | None:
    """ "Do I have the queen of spades?": yes or no, about the asker's own hand."""
    if reading.about_another:
        return None  # "Ben a encore eu un roi": his card, said of him
    terse = (  # a card by its rank, not "tem carta coringa?" (are there wilds?)
        len(_content(reading)) <= 3
        and _named_seat(reading, names) is None
        and all(spec.rank is not None for spec in reading.cards)
    )
    if not (
        reading.question
        and (_me(reading) or terse)  # "got the K♥?": the asker's own hand
        and reading.any("have", "hand")
        and reading.cards
    ):
        return None  # "do I have the queen?", "any jokers in my hand?"
    acts = reading.any("draw", "discard", "move", "end_turn", "go_out", "play")
    if reading.any("how_many", "value", "can", "where") or len(reading.cards) != 1 or acts:
        return None
    if state is None:
        return Refusal("no_game_yet")
    spec = reading.cards[0]
    wild = state.get("wild_rank")
    held = [
        card
        for card in state.get("hand") or []
        if spec.matches(card, wild if isinstance(wild, int) else None)
    ]
    if held:
        return Answer("holding_yes", {"cards": sorted(set(held))})
    return Answer("holding_no", {"card": spec.shown()})


def _round(reading: Reading, state: State | None, names: Mapping[int, str]) -> Understood | None:
    """ "What round is it?" """
    if not (reading.question and reading.any("round") and reading.any("what", "how_many")):
        return None
    if reading.cards or reading.any(
        "end_turn", "when", "how", "score", "last", "card", "hand", "turn", "meld", "build"
    ):
        return None  # "what's a turn in this game?" is a rule
    if reading.any("do"):
        return None  # "je fais quoi pendant mon tour ?" is a rule
    if WILD_WORDS & set(reading.words):
        return None
    if state is None:
        return Refusal("no_game_yet")
    return round_answer(state)


def round_answer(state: State) -> Answer:
    """Which round this is."""
    return Answer("round_is", {"round": state.get("round")})


def _where(reading: Reading, state: State | None, names: Mapping[int, str]) -> Understood | None:
    """ "Where can the seven go?": the piles it fits, nothing played."""
    if not (reading.any("where") and reading.question and len(reading.cards) == 1):
        return None
    if reading.piles or state is None:
        return None
    spec = reading.cards[0]
    legal: Sequence[dict[str, Any]] = state.get("legal_actions") or []
    fitting = [a for a in legal if a["type"] == "play" and spec.matches(str(a["card"]))]
    cards = sorted({str(a["card"]) for a in fitting})
    if len(cards) == 1:
        return Answer("legal_yes_piles", {"card": cards[0], "piles": [a["pile"] for a in fitting]})
    if cards:
        return Refusal("which_card", {"cards": cards})
    return Answer("legal_no")


def _hand(reading: Reading, state: State | None, names: Mapping[int, str]) -> Understood | None:
    acts = reading.any("draw", "discard", "move", "end_turn", "go_out")
    if reading.any("how_many", "score", "value", "turn", "need") or reading.cards or acts:
        return None  # "ik heb een kaart nodig" asks for a card, not the hand
    if reading.any("build", "empty") or (reading.any("play") and reading.any("another")):
        return None  # "which card may I put on another one?", "…on an empty spot?": rules
    mine = _me(reading) and (
        reading.any("hand")
        or (
            reading.any("card") and (reading.any("what", "have", "show") or len(reading.words) <= 3)
        )
        or (reading.has("what", "have") and (reading.question or reading.any("show")))
    )
    if not mine:
        return None
    if not (reading.question or reading.any("show") or len(_content(reading)) <= 3):
        return None  # "ik heb gewoon slechte kaarten vandaag": said, not asked
    if state is None:
        return Refusal("no_game_yet")
    return hand_answer(state)


def hand_answer(state: State) -> Answer:
    """The asker's own cards."""
    hand = list(state.get("hand") or [])
    return Answer("hand", {"cards": hand}) if hand else Answer("hand_empty")


# ------------------------------------------------------------------ scores, wilds, values


def _standings(
    reading: Reading, state: State | None, names: Mapping[int, str]
) -> Understood | None:
    by_cards = reading.has("who", "fewest") and reading.any("card")
    points_of = (  # "Ben's on how many?": in a scored game, a named player's points
        reading.any("how_many")
        and _named_seat(reading, names) is not None
        and not reading.any("card", "stock", "draw", "left")
        and not any("have" in concepts_of(word) for word in reading.words if word != "a")
    )
    if not reading.question and _acts(reading):
        return None  # "lose the seven of diamonds", "eu compro uma carta primeiro": a move
    if reading.any("what") and reading.any("discard") and _me(reading):
        return None  # "what should I throw to keep my points down?": the hint
    if not reading.question and _talk(reading) and _named_seat(reading, names) is None:
        return None  # "haha papa verliest weer": news of the table, nothing asked
    if not (reading.any("score") or by_cards or points_of) or (
        reading.any("value", "how") and reading.cards
    ):
        return None
    if reading.any("mean", "when") or (reading.any("how") and reading.any("works", "last")):
        return None  # "how do points work?", "how are points counted at the end?": rules
    how_to_win = reading.any("how") and (reading.any("round") or reading.has("lead"))
    if how_to_win and not reading.any("me", "who") and _named_seat(reading, names) is None:
        return None  # "comment on gagne (la partie) ?", "how do you win?": a rule
    if state is None:
        return Refusal("no_game_yet")
    return standings_answer(reading, state, names, by_cards)


def standings_answer(
    reading: Reading, state: State, names: Mapping[int, str], by_cards: bool = False
) -> Answer:
    """Who leads (by points, or by fewest cards in an unscored game), or one player's total."""
    me = _seat(state)
    scores: Sequence[int] = state.get("scores") or []
    counts: Sequence[int] = state.get("hand_counts") or []
    scored = state.get("game") == CROWNS or bool((state.get("options") or {}).get("session"))
    if not scored or not scores or by_cards:
        if _me(reading) and reading.has("how_many") and not _said(reading, "score"):
            # "how many have I got?" where no points are kept: the cards in hand
            return _counted("cards_you", len(state.get("hand") or []))
        if not counts or (_me(reading) and not reading.any("who")):
            return Answer("no_scores")
        if not (by_cards or reading.any("who", "lead", "fewest")):
            return Answer("no_scores")  # "c'est quoi le score ?": none kept; not "who's winning?"
        fewest = min(counts)
        leaders = [seat for seat, count in enumerate(counts) if count == fewest]
        if me in leaders and len(leaders) == 1:
            return Answer("leader_cards_you", {"count": fewest})
        if len(leaders) > 1:
            return Answer("leader_cards_tied", {"seats": leaders, "count": fewest})
        return Answer("leader_cards", {"seat": leaders[0], "count": fewest})
    own = scores[me] if me is not None and me < len(scores) else None
    named = _named_seat(reading, names)
    if named is not None and named != me and 0 <= named < len(scores) and not reading.any("who"):
        return Answer("score_of", {"seat": named, "points": scores[named]})
    if _me(reading) and not reading.any("who", "lead") and own is not None:
        return Answer("my_total", {"points": own})
    best = min(scores)
    leaders = [seat for seat, total in enumerate(scores) if total == best]
    if len(leaders) > 1:
        return Answer("leader_tied", {"seats": leaders, "points": best, "own": own})
    if leaders[0] == me:
        return Answer("leader_you", {"points": best})
    return Answer("leader", {"seat": leaders[0], "points": best, "own": own})


def _wild(reading: Reading, state: State | None, names: Mapping[int, str]) -> Understood | None:
    said_wild = bool(WILD_WORDS & set(reading.words)) or any(s.wild for s in reading.cards)
    jokers = any(s.joker for s in reading.cards)
    # "les cinq sont jokers ?", "y a des jokers ?": French and Dutch call wild cards jokers
    joker_round = jokers and (
        reading.any("round", "what")
        or any(s.rank for s in reading.cards)
        or (
            reading.question and not _me(reading) and not reading.any("can") and not _plays(reading)
        )
    )
    # "spelen we met jokers?": the pack asked about (not "a run with a joker in it")
    pack = reading.question and reading.any("play") and _with_jokers(reading)
    joker_round = joker_round or pack
    acting = _acts(reading) and not (reading.question and reading.any("have")) and not pack
    if reading.any("meld") and reading.any("can"):
        return None  # "can a book have wild cards in it?": the rule of melds
    priced = reading.any("value", "how_many") and not (_which_is_wild(reading) or _as_wild(reading))
    if not (said_wild or joker_round) or priced or acting:
        return None
    # "threes are wild right", "os seis são curinga agora né": a rank said wild, checked
    ranked_wild = (said_wild or joker_round) and _said_wild_of_a_rank(reading)
    if not (reading.question or reading.any("what", "show") or ranked_wild):
        return None  # "rappelle-moi le joker de la manche": asked too
    if state is None:
        return Refusal("no_game_yet")
    if jokers and not said_wild and state.get("game") != CROWNS:
        return Answer("no_jokers")  # "y a des jokers ?": a card this game's pack has not
    return wild_answer(state)


_WITH = frozenset({"with", "without", "avec", "sans", "com", "sem", "met", "zonder"})


def _with_jokers(reading: Reading) -> bool:
    """ "do we play with jokers?", "on joue avec des jokers ?": the pack asked about."""
    for spec in reading.cards:
        before = [w for w in reading.words[max(0, spec.at - 2) : spec.at] if w not in ARTICLES]
        if spec.joker and before and before[-1] in _WITH:
            return True
    return False


def _said_wild_of_a_rank(reading: Reading) -> bool:
    """A rank, then a word of wilds after it with no "and" between ("threes are wild",
    "c'est les six qui sont jokers"): not "the joker and the king of spades"."""
    ranks = [spec.at for spec in reading.cards if spec.rank and not spec.wild]
    wilds = [at for at, word in enumerate(reading.words) if word in WILD_WORDS | JOKER_WORDS]
    return any(
        0 < wild - rank <= 5 and not _AND & set(reading.words[rank:wild])
        for rank in ranks
        for wild in wilds
    )


_AND = frozenset({"and", "et", "en", "plus", "with", "avec", "com", "met"})


def wild_answer(state: State) -> Answer:
    """What is wild this round (nothing in Kings in the Corner)."""
    wild = state.get("wild_rank")
    if state.get("game") != CROWNS or not isinstance(wild, int):
        return Answer("wild_none")
    return Answer("wild", {"wild_rank": wild})


def _which_is_wild(reading: Reading) -> bool:
    """ "Which card counts as wild?", "que carta tá valendo como curinga?": the wild rank
    asked, not its price."""
    said_wild = bool(WILD_WORDS & set(reading.words))
    # "which number is the wild one?", "quel chiffre est joker ?": a rank asked, not a count
    which_rank = any(a in _WHICH and b in _RANK_NOUNS for a, b in itertools.pairwise(reading.words))
    card_asked = reading.has("what", "card") and not reading.any("how_many", "score")
    return (
        said_wild
        and (card_asked or which_rank)
        and reading.question
        and not reading.any("me")  # "what's a wild card worth if I get stuck with it"
        and not any(spec.rank for spec in reading.cards)
    )


def _as_wild(reading: Reading) -> bool:
    """ "does the four of clubs count as a wild?", "telt harten vijf als joker?": whether a
    card is wild, not what it costs."""
    words = reading.words
    return any(
        word in _AS and any(w in WILD_WORDS or w in JOKER_WORDS for w in words[at + 1 : at + 3])
        for at, word in enumerate(words)
    )


_AS = frozenset({"as", "als", "comme", "como"})
_WHICH = frozenset({"which", "what", "quel", "quelle", "qual", "que", "welk", "welke"})
_RANK_NOUNS = frozenset(
    {"number", "rank", "numero", "chiffre", "nombre", "valeur", "nummer", "getal", "rang"}
)


def _value(reading: Reading, state: State | None, names: Mapping[int, str]) -> Understood | None:
    priced = reading.any("value") or (reading.has("how_many") and reading.any("score"))
    # "how much is a jack?": a card's price, not how many of it
    wild_said = bool(WILD_WORDS & set(reading.words)) or any(s.wild for s in reading.cards)
    priced = priced or (reading.question and reading.has("how_many") and wild_said)
    priced = priced or (
        reading.question
        and reading.has("how_many")
        and any(spec.rank for spec in reading.cards)
        and not reading.any("card", "have", "left", "stock", "me", "everyone")
    )
    # "points for a joker?": a card's price without "how many"
    priced = priced or (
        reading.question
        and reading.any("score")
        and any(spec.rank or spec.joker or spec.wild for spec in reading.cards)
        and not reading.any("me", "who", "have", "lead", "can")
    )
    priced = priced or _priced_before_if(reading)
    if reading.any("meld") or _named_seat(reading, names) is not None:
        return None  # "what counts as a book?" is a rule, "how many points has Ben?" a score
    if _which_is_wild(reading) or _as_wild(reading):
        return None
    if not reading.question and _acts(reading):
        return None  # "lose the seven of diamonds": a discard
    if not priced or (reading.any("me", "who") and not reading.cards and not wild_said):
        return None
    if not (reading.question or reading.cards or wild_said) and _talk(reading):
        return None  # "perdi o norte com esse jogo": a loss spoken of, no price asked
    if state is None:
        return Refusal("no_game_yet")
    return value_answer(reading, state, wild_said)


def _priced_before_if(reading: Reading) -> bool:
    """ "how much is a king if I'm stuck with it?": a card's price asked before an "if",
    whatever the condition says (holding, left, me)."""
    if not (reading.question and reading.has("how_many")):
        return False
    if_at = next((at for at, word in enumerate(reading.words) if word in _IF), None)
    return if_at is not None and any(
        spec.at < if_at and (spec.rank or spec.joker or spec.wild) for spec in reading.cards
    )


_IF = frozenset({"if", "si", "se", "als"})


_OF_THE_WORDS = frozenset(
    {"of", "the", "this", "de", "la", "le", "cette", "ce", "da", "do", "desta", "dessa",
     "nesta", "van", "het", "deze", "dit", "for", "pour", "para"}
)  # fmt: skip


def _of_the_round(reading: Reading, at: int) -> bool:
    """ "le joker de la manche", "the joker of this round": the round's own wild, not the
    joker at "the end of the round"."""
    later = at + 1
    while later < len(reading.words) and reading.words[later] in _OF_THE_WORDS:
        later += 1
    return (
        later > at + 1
        and later < len(reading.words)
        and "round" in concepts_of(reading.words[later])
    )


def _unknown_words(reading: Reading, names: Mapping[int, str]) -> int:
    """How many words of the line the assistant does not know, players' names aside."""
    named = first_names(names)
    return sum(
        len(w) > 2 and not is_known(w) and w not in FILLERS and w not in named
        for w in reading.words
    )


def _talk(reading: Reading) -> bool:
    """A statement among words the assistant does not know ("…com esse jogo kkk")."""
    return _unknown_words(reading, {}) > 0


def value_answer(reading: Reading, state: State, wild_said: bool) -> Answer:
    """What the card the line names costs in hand at the end (the scoring rule if none)."""
    game = state.get("game")
    wild = state.get("wild_rank")
    wild_rank = wild if isinstance(wild, int) else 0
    spec = reading.cards[0] if reading.cards else None
    round_joker = spec is not None and spec.joker and _of_the_round(reading, spec.at)
    if game == CROWNS and (wild_said or round_joker):  # "le joker de la manche": its wild
        return Answer("card_value_wild", {"points": WILD_PENALTY, "wild_rank": wild_rank})
    if spec is not None and spec.joker:
        if game != CROWNS:
            return Answer("no_jokers")
        return Answer("card_value_joker", {"points": JOKER_PENALTY})
    if spec is None or spec.rank is None:
        return Answer(f"rule_{_prefix(game)}_score{_score_suffix(state)}")
    rank_text = RANK_TEXT.get(spec.rank, str(spec.rank))
    if game == CROWNS:
        try:
            card = parse_card(f"{rank_text}{spec.suit or 'H'}")
        except CardSyntaxError:
            return Answer("no_such_card", {"rank": rank_text})
        if not 3 <= card.rank <= 13:
            return Answer("no_such_card", {"rank": rank_text})
        points = card_penalty(card, wild_rank)
        if card.rank == wild_rank:
            return Answer("card_value_wild", {"points": points, "wild_rank": wild_rank})
    else:
        scheme = str((state.get("options") or {}).get("scoring", "kings_ten"))
        table = PENALTY.get(scheme, PENALTY["kings_ten"])
        points = next(table[n] for n in range(len(RANK)) if RANK[n] == spec.rank)
    if points == 1:
        return Answer("card_value_one", {"rank": rank_text})
    return Answer("card_value", {"rank": rank_text, "points": points})


# ------------------------------------------------------------------ the rules


def rule_answer(base: str, state: State) -> Answer:
    """The rule on ``base`` (a topic without the table's options: "draw", "score"…)
    for this game and these options."""
    game = state.get("game")
    options: Mapping[str, Any] = state.get("options") or {}
    topic = base
    if base == "draw":
        topic = "draw_" + str(options.get("draw", "start"))
    elif base == "score" and game != CROWNS:
        topic = "score_" + str(options.get("scoring", "kings_ten"))
    elif base == "move":
        topic = "move_kings" if options.get("king_pile_to_corner", True) else "move"
    elif base == "discard_taken":
        topic = "discard_taken_" + ("yes" if options.get("discard_taken") else "no")
    return Answer(f"rule_{_prefix(game)}_{topic}")


def _prefix(game: object) -> str:
    return "fc" if game == CROWNS else "kc"


def _score_suffix(state: State) -> str:
    if state.get("game") == CROWNS:
        return ""
    return "_" + str((state.get("options") or {}).get("scoring", "kings_ten"))


def _rules(reading: Reading, state: State | None, names: Mapping[int, str]) -> Understood | None:
    # "remind me what goes on what": asked as a request
    asking = reading.question or reading.any("mean", "when", "how") or reading.has("show", "what")
    if not asking or reading.about_another:
        return None  # "Ben a encore eu un roi pour son coin": news of Ben, no rule asked
    if reading.cards and reading.asks_it_done() and not reading.any("mean", "how", "when"):
        return None  # "could you put my king in a corner for me": the move, asked for
    game = state.get("game") if state else None
    options: Mapping[str, Any] = (state.get("options") or {}) if state else {}
    topic = _crowns_topic(reading, options) if game == CROWNS else None
    if topic is None and game != CROWNS:
        topic = _kings_topic(reading, options)
    if topic is None and reading.has("mean"):
        topic = "turn"
    if topic is None:
        return None
    return Answer(f"rule_{_prefix(game)}_{topic}")


def _general(reading: Reading) -> bool:
    """No particular card or pile: "can a queen start a corner?", not "…the seven on north"."""
    return not reading.piles or all(spec.code is None for spec in reading.piles)


def _kings_topic(reading: Reading, options: Mapping[str, Any]) -> str | None:
    # A pile named, by its place or by its cards ("the seven of hearts pile onto the eight
    # of clubs"): that move, not the rule.
    by_cards = len(reading.cards) >= 2 and any(spec.onto for spec in reading.cards)
    specific = by_cards or any(spec.code for spec in reading.piles)
    if reading.any("build") and not specific:
        return "build"
    if (
        reading.has("card")
        and reading.any("another", "pile")
        and reading.any("play")
        and not (specific or reading.cards or reading.any("empty", "corner", "move"))
    ):
        return "build"  # "which card may I put on another?", "…poser une carte sur une pile"
    if reading.any("do") and reading.any("turn", "round"):
        return "turn"  # "what do I do on my turn?"
    if reading.any("draw") and reading.any("first", "start") and not reading.cards:
        return "draw_" + str(options.get("draw", "start"))  # "…au début ou à la fin ?"
    if reading.has("when", "end_turn") and not reading.any("me", "turn"):
        return "round_end"  # "when is it over?", "quando acaba?"
    if reading.any("how") and reading.has("lead") and not reading.any("me", "who"):
        return "round_end"  # "how do you win?": who goes out first
    if reading.has("when", "lead") and not reading.any("me", "who"):
        return "round_end"  # "when does someone win?"
    if reading.has("understand", "end_turn") and reading.any("how", "when"):
        return "round_end"  # "how do you know when it's over?", "hoe weet je dat het af is?"
    if reading.any("score") and reading.any("how", "mean") and not reading.any("turn", "lead"):
        return "score_" + str(options.get("scoring", "kings_ten"))  # before "how … works"
    asked_of_corners = reading.any("start", "empty", "can", "what", "who") or reading.cards
    how_they_work = reading.any("how") and reading.any("works")
    if reading.any("corner") and not specific and (asked_of_corners or how_they_work):
        return "corner"  # "how do the corners work?", "comment ça marche, les coins ?"
    if reading.any("move", "play") and reading.has("pile", "another") and not specific:
        return "move_kings" if options.get("king_pile_to_corner", True) else "move"
    if reading.has("move") and reading.any("pile", "another") and not specific:
        return "move_kings" if options.get("king_pile_to_corner", True) else "move"
    if reading.has("pile", "another", "can") and not specific:  # "mag een stapel op een andere?"
        return "move_kings" if options.get("king_pile_to_corner", True) else "move"
    if reading.any("empty") and reading.any("side", "pile") and not specific:
        return "empty_side"
    if reading.any("how", "what") and reading.any("works") and reading.any("turn", "play"):
        return "turn"  # "how does a turn work?", "what happens on a turn?"
    if (
        reading.any("round")
        and reading.any("end_turn", "when", "score")
        and (reading.any("when", "how", "end_turn"))
    ):
        return "round_end"
    if reading.any("draw") and (
        reading.any("when", "how_many", "should", "how", "every", "first", "need", "start")
        or (reading.any("can") and not reading.any("me"))  # "can I draw?": now, yes or no
    ):
        return "draw_" + str(options.get("draw", "start"))
    if reading.any("score") and reading.any("how", "mean"):
        return "score_" + str(options.get("scoring", "kings_ten"))
    if len(reading.cards) >= 2 and reading.any("can") and not _me_specific(reading):
        return "build"
    if reading.any("how") and reading.any("play", "turn") and not reading.cards:
        return "turn"
    if reading.has("what", "turn") and not reading.any("me", "who", "you"):
        return "turn"  # "what's a turn in this game?"
    return None


def _me_specific(reading: Reading) -> bool:
    """A card by rank and suit ("can the nine of clubs go on the ten?") is this hand's."""
    return any(spec.suit and spec.rank for spec in reading.cards) or (
        reading.any("me") and any(spec.suit for spec in reading.cards)
    )


def _crowns_topic(reading: Reading, options: Mapping[str, Any]) -> str | None:
    if any("someone" in concepts_of(word) for word in reading.words) and _talk(reading):
        return None  # "alguém fecha a janela?": asked of the room (not "si Zoé sort…")
    if reading.any("go_out") and reading.any("someone", "after"):
        return "last_turn"  # "do I still play after someone went out?"
    if reading.any("go_out") and reading.any("another") and reading.any("play", "turn"):
        return "last_turn"  # "if I go out, do the others still play?"
    if reading.has("what", "works", "end_turn", "round") and not reading.any(
        "score", "value", "me", "how"
    ):
        return "round_end"  # "what happens at the end of a round?"
    if reading.any("do") and reading.any("turn", "round"):
        return "turn"
    if reading.has("understand", "end_turn") and reading.any("how", "when"):
        return "round_end"  # "how do you know the round is over?"
    if reading.has("when", "end_turn") and not reading.any("me", "turn", "go_out"):
        return "round_end"
    if reading.any("score") and reading.any("how", "mean") and not reading.any("turn"):
        return "score"  # "how does scoring work in this game?", and "how do you win?"
    if reading.any("go_out") and reading.any("mean", "what", "how", "when", "can", "need"):
        if reading.any("me") and reading.any("can") and not reading.any("how", "mean", "when"):
            return None  # "can I go out?" is about this hand; "when can I?" the rule
        return "go_out"
    if reading.any("meld"):
        return "melds"
    if reading.any("last") and reading.any("turn", "round", "play", "everyone"):
        return "last_turn"  # "tout le monde rejoue une dernière fois ?"
    if reading.any("how", "what") and reading.any("works") and reading.any("turn", "play"):
        return "turn"
    if reading.any("round") and reading.any("end_turn", "when") and reading.any("when", "how"):
        return "round_end"
    thrown_back = sum(bool(concepts_of(word) & {"discard"}) for word in reading.words) >= 2 or (
        bool(BACK_WORDS & set(reading.words))
    )  # "throw back the card I took from the discard", not "can I take the discard?"
    if thrown_back and reading.any("take", "draw") and reading.any("can"):
        return "discard_taken_" + ("yes" if options.get("discard_taken") else "no")
    if reading.any("score") and reading.any("how", "mean", "when"):
        return "score"
    if reading.any("how") and reading.any("play", "turn") and not reading.cards:
        return "turn"
    if reading.has("what", "turn") and not reading.any("me", "who", "you"):
        return "turn"  # "what's a turn in this game?"
    return None


Question = Callable[[Reading, State | None, Mapping[int, str]], Understood | None]
# The order settles overlaps: a hint before help, counts before the hand, values before wilds.
_QUESTIONS: tuple[Question, ...] = (
    _hint,
    _help,
    _holding,
    _where,
    _round,
    _counts,
    _value,
    _wild,
    _discard_top,
    _standings,
    _turn,
    _moves,
    _hand,
    _pile_top,
    _rules,
)
