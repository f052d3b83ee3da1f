"""A line read into what it names: verbs and other concepts, cards, piles, in order.

Nothing here knows the position: ``understand`` matches the reading against the seat's
few legal actions and known questions. A card may be named by rank, suit, colour, as a
code ("7h"), a Dutch compound ("ruitenvrouw") or a symbol ("7♥"); a pile by its
direction, as a corner or empty spot, or (in ``understand``) by its top card.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace

from services.assistant.idioms import idiom_spans, separable_concepts
from services.assistant.sounds import (
    PILE_SOUNDS,
    RANK_SOUNDS,
    SUIT_SOUNDS,
    typed_face,
    typed_verb,
)
from services.assistant.words import (
    COLOUR_WORDS,
    CONCEPTS,
    CONFIRMING_TAGS,
    CONNECTORS,
    CORNER_WORDS,
    FILLERS,
    FROM,
    HESITATION_SOUNDS,
    HORIZONTAL,
    IS_AFTER,
    IS_BEFORE,
    IS_STATES,
    JOKER_WORDS,
    LANGUAGES,
    ONTO,
    PILE_CODES,
    PILE_LETTERS,
    RANK_WORDS,
    SCREEN_HORIZONTAL,
    SCREEN_VERTICAL,
    SHORTHAND,
    SUIT_COLOUR,
    SUIT_WORDS,
    VERTICAL,
    WEAK_RANKS,
    WILD_WORDS,
    card_code,
    concepts_of,
    is_known,
    normalize,
    plain,
    split_compound,
)

_WORD = re.compile(r"[A-Za-z0-9]+")
_MAX_WORDS = 60  # a line longer than this is read by its first words only
_MAX_CHARS = 600
_MAX_WORD = 24  # longer "words" are noise: no stem, no sound
QUESTION_STARTS = frozenset(
    {"who", "whose", "what", "whats", "which", "how", "when", "where", "why", "is", "are",
     "can", "could", "may", "do", "does", "did", "should", "will", "qui", "que", "quoi",
     "quel", "quelle", "quels", "combien", "quand", "comment", "ou", "est", "puis", "peux",
     "peut", "dois", "qu", "quem", "qual", "quais", "quanto", "quantos", "quantas",
     "quando", "como", "onde", "posso", "pode", "devo", "wie", "wat", "welke",
     "hoeveel", "wanneer", "hoe", "waar", "waarom", "kan", "mag", "moet", "ben", "heb",
     "zijn", "mogen", "kun", "tell", "show", "any", "dis", "diz", "zeg", "vertel", "am",
     "has", "dites", "diga", "digam"}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class CardSpec:
    """A card as said: what of rank, suit, colour was named; ``onto`` when it is a target."""

    rank: int | None
    suit: str | None
    colour: str | None
    at: int
    onto: bool = False
    joker: bool = False
    wild: bool = False
    heard: bool = False  # its rank and suit both only by their sound: only ever a legal action
    one: bool = False  # one card of a suit, said so ("um de paus", "een harten"): a card named

    def matches(self, text: str, wild_rank: int | None = None) -> bool:
        """Whether the card ``text`` ("7H", "JK") is one this could name."""
        if text == "JK":
            return self.joker or self.wild
        if self.joker:
            return False
        rank, suit = card_rank(text), text[-1]
        if self.wild:
            return wild_rank is not None and rank == wild_rank
        if self.rank is not None and rank != self.rank:
            return False
        if self.suit is not None and suit != self.suit:
            return False
        return self.colour is None or SUIT_COLOUR.get(suit) == self.colour

    def text(self) -> str | None:
        """The card's code when the words name one card exactly."""
        if self.joker:
            return "JK"
        if self.rank is None or self.suit is None:
            return None
        return f"{RANK_TEXT.get(self.rank, str(self.rank))}{self.suit}"

    def shown(self) -> str:
        """How to name it back: the code, else the rank ("Q"), else the suit's code, else
        "wild" (the screens word each)."""
        if self.wild and not self.text():
            return "wild"
        return self.text() or (
            RANK_TEXT.get(self.rank, str(self.rank)) if self.rank else (self.suit or "?")
        )


@dataclass(frozen=True, slots=True)
class PileSpec:
    """A pile as said: a direction, or only "an empty corner" / "an empty spot"."""

    code: str | None
    at: int
    onto: bool = False
    source: bool = False
    corner: bool = False
    empty: bool = False


@dataclass(frozen=True, slots=True)
class Reading:
    """What a line names; ``concepts`` per word, flattened; ``words`` as normalised."""

    words: tuple[str, ...]
    concepts: frozenset[str]
    cards: tuple[CardSpec, ...]
    piles: tuple[PileSpec, ...]
    question: bool
    negated: bool
    lead_word: str = ""  # the first word, past a word set apart by a comma ("zo, ben ik?")
    about_another: bool = False  # said of another player, not asked: "Ben took the queen"
    only_marked: bool = False  # a question by its "?" alone, no word of asking

    def has(self, *concepts: str) -> bool:
        return all(concept in self.concepts for concept in concepts)

    def any(self, *concepts: str) -> bool:
        return any(concept in self.concepts for concept in concepts)

    def asks_it_done(self) -> bool:
        """The assistant asked to do something with the speaker's own card, "for me" or
        "please" ("could you put my king in a corner for me"): a move, not a rule (a
        general "can you put a queen in a corner?" asks the rule)."""
        words = set(self.words)
        pairs = set(itertools.pairwise(self.words))
        return "you" in self.concepts and bool(words & _POLITE or pairs & _FOR_ME or words & _MY)

    def asks_opinion(self) -> bool:
        """What the assistant would do in the speaker's place, asked ("would you take the
        queen?", "tu prendrais la dame ?", "zou jij de vrouw pakken?"): advice, not a
        request; "please", "would you mind", "for me" or Dutch "willen" make it one."""
        words = set(self.words)
        pairs = set(itertools.pairwise(self.words))
        if not self.question or words & _POLITE or pairs & _FOR_ME:
            return False
        would_you = ("would", "you") in pairs or any(p in pairs for p in _ZOU_JIJ)
        return would_you or ("conditional" in self.concepts and bool(words & _YOU_FAMILIAR))


_MY = frozenset({"my", "mon", "ma", "mes", "meu", "minha", "meus", "minhas", "mijn", "m"})


_POLITE = frozenset(  # "would you mind…", "zou je … willen": a request
    {
        "please",
        "pls",
        "plz",
        "svp",
        "stp",
        "plait",
        "favor",
        "alsjeblieft",
        "alstublieft",
        "aub",
        "mind",
        "kind",  # "would you be so kind as to…", "zo vriendelijk"
        "gentillesse",
        "amabilite",
        "gentileza",
        "willen",
        "importa",
        "importas",
        "kindly",
        "gentiment",
        "gentilmente",
        "vriendelijk",
    }
)
_FOR_ME = frozenset({("for", "me"), ("pour", "moi"), ("para", "mim"), ("voor", "mij")})
_ZOU_JIJ = (("zou", "jij"), ("zou", "je"), ("zou", "u"))
_YOU_FAMILIAR = frozenset({"tu", "toi", "voce", "vous"})


RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
RANK_OF_TEXT = {text: rank for rank, text in RANK_TEXT.items()}


def card_rank(text: str) -> int:
    """The rank of a card's text ("QH" -> 12, "10S" -> 10); -1 for the joker."""
    head = text[:-1]
    return RANK_OF_TEXT.get(head) or (int(head) if head.isdigit() else -1)


_PERCENT = re.compile(r"\d+(?:[.,]\d+)?\s*%")


def tokens(text: str) -> tuple[list[str], list[bool]]:
    """Normalised words, Dutch compounds split, and whether each was written in capitals."""
    words: list[str] = []
    upper: list[bool] = []
    text = _PERCENT.sub(" percent ", text[:_MAX_CHARS])  # "5% de bateria" is no five
    raws = [match.group()[:_MAX_WORD] for match in _WORD.finditer(plain_keep_case(text))]
    for at, raw in enumerate(raws):
        word = raw.lower()
        parts = (
            split_compound(word)
            or _elided(word)
            or _contracted(word, raws[at + 1 : at + 3])
            or _pile_compound(word)
        )
        for part in parts or (word,):
            twice = bool(words) and part == words[-1] and not (part.isdigit() or upper[-1])
            if words and (_joined(words, part) or (twice and not _initials(raw))):
                continue  # put back together, or said twice ("the queen queen", "le le")
            words.append(part)
            upper.append(_initials(raw))
        if len(words) >= _MAX_WORDS:
            break
    return words, upper


def _unabbreviated(
    words: list[str], upper: list[bool], lang: str | None
) -> tuple[list[str], list[bool]]:
    """Chat shorthand in the speaker's language written out ("c a ki de jouer", "oq tem
    no N", "hvl kaarten"); a capital letter stays a pile's initial."""
    table = SHORTHAND.get(lang or "", {})
    if not table:
        return words, upper
    out_words: list[str] = []
    out_upper: list[bool] = []
    for word, capital in zip(words, upper, strict=True):
        full = None if capital else table.get(word)
        out_words.extend(full or (word,))
        out_upper.extend([capital] * len(full or (word,)))
    return out_words, out_upper


_CORNER_NOUNS = frozenset({"corner", "coin", "canto", "cantinho", "hoek", "hoekje"})
_SPLIT_SUITS = frozenset(w for w in SUIT_WORDS if w.endswith("en"))  # "klaver en", "hart en"
_SPLIT_SIDES = frozenset(  # "ou est", "o este", "sudo este"
    w for w in (*HORIZONTAL, *CORNER_WORDS) if len(w) >= 5
)


_PLACES = tuple(sorted((*VERTICAL, *HORIZONTAL, *CORNER_WORDS), key=len, reverse=True))
_PLACE_NOUNS = frozenset({"hoek", "hoekje", "kant", "stapel", "rij", "vak", "vakje", "plek"})


def _pile_compound(word: str) -> tuple[str, str] | None:
    """A Dutch compound of a place and a pile's noun: "noordoosthoek", "oostkant"."""
    for place in _PLACES:
        if word.startswith(place) and word[len(place) :] in _PLACE_NOUNS:
            return place, word[len(place) :]
    return None


def _initials(raw: str) -> bool:
    """A pile's initials typed in capitals ("no NO": on northwest)."""
    return raw.isupper() and len(raw) <= 2


def _joined(words: list[str], part: str) -> bool:
    """A word a recogniser heard as two, put back together in ``words``: "klaver en zes"
    (klaveren), "sud où est" (sud-ouest), "no o este" (oeste). Sides only where a pile
    is wanted, after "south" or "on": "où est le roi ?" stays a question."""
    joined = words[-1] + part
    doubled = words[-1] + words[-1][-1:] + part  # "schop en koning": schoppen
    if joined in _SPLIT_SUITS or (part == "en" and doubled in _SPLIT_SUITS):
        words[-1] = joined if joined in _SPLIT_SUITS else doubled
        return True
    if joined in _SPLIT_SIDES and len(words) >= 2:
        before = words[-2]
        if before in VERTICAL or before in ONTO or before in _CORNER_NOUNS:  # "canto nor deste"
            words[-1] = joined
            return True
    return False


def _elided(word: str) -> tuple[str, ...] | None:
    """French elision typed without its apostrophe: "louest", "lest" (l'ouest, l'est)."""
    if len(word) >= 4 and word[0] == "l" and not concepts_of(word):
        rest = word[1:]
        if rest in HORIZONTAL or rest in VERTICAL or rest in CORNER_WORDS:
            return "l", rest
    if len(word) >= 5 and word[0] == "j" and not is_known(word):  # "jpioche", "jprends"
        rest = word[1:]
        if concepts_of(rest) & _ELIDED_VERBS:
            return "j", rest
    return None


def _contracted(word: str, following: list[str]) -> tuple[str, ...] | None:
    """A French contraction typed without its apostrophe ("cest", "jai"), read as with it;
    but "cest de pique" is a seven heard as "c'est" (the slip), left for the card reader."""
    parts = _CONTRACTED.get(word)
    if parts and word == "cest" and len(following) == 2 and following[0].lower() in ("de", "d"):
        return None if following[1].lower() in SUIT_WORDS else parts
    return parts


# French contractions typed (or transcribed) without their apostrophe, read as with it.
_CONTRACTED: dict[str, tuple[str, ...]] = {
    "cest": ("c", "est"),
    "quest": ("qu", "est"),
    "jai": ("j", "ai"),
    "jen": ("j", "en"),
    "jy": ("j", "y"),
    "nimporte": ("n", "importe"),
    "quil": ("qu", "il"),
    "questce": ("qu", "est", "ce"),
}


_ELIDED_VERBS = frozenset({"draw", "take", "discard", "play", "move", "go_out", "end_turn"})
_THEN = frozenset({"and", "then", "et", "puis", "e", "depois", "en", "dan"})


def plain_keep_case(text: str) -> str:
    """``plain`` but keeping capitals (a pile typed as "N" or "NE", a king as "K♠"),
    character by character: "♠" and "œ" grow longer in plain text."""
    return "".join(_plain_char(char) for char in text)


def _plain_char(char: str) -> str:
    lowered = plain(char)
    return lowered.upper() if char.isupper() and len(lowered) == 1 else lowered


def read(text: str, lang: str | None = None, names: frozenset[str] = frozenset()) -> Reading:
    """The concepts, cards and piles of ``text``, said by a speaker of ``lang`` (if known).

    ``names`` are the players' first names, normalised: never heard as a card or a pile
    ("les cartes de Zoé" is not south misheard)."""
    text = _INTERJECTION.sub("", text, count=1)
    text = _GAME_NAMES.sub(" ", text)  # "au roi dans le coin", "bij five crowns": no cards
    text = _AS_ANYTHING.sub(" wild ", text)
    corrected = _corrected(text)
    text = _without_refused_clauses(corrected, speaker_of(lang))
    refused_out = text != corrected and _refuses_going_out(corrected, speaker_of(lang))
    speaker = speaker_of(lang)
    words, upper = _unabbreviated(*tokens(text), speaker)
    # "bens total?", "Zoés kaarten": a name's possessive typed without its apostrophe
    words = [w[:-1] if w.endswith("s") and w[:-1] in names else w for w in words]
    words = [_name_spelt(word, names) for word in words]
    if speaker in (None, "en"):
        _of_as_a(words)
    _rank_letters(words, upper, speaker)
    if speaker in (None, "en"):
        _to_misheard(words)
    if speaker in (None, "fr"):
        _de_misheard(words)
    if speaker in (None, "nl"):
        _wilde_as_verb(words)
    per_word = [set(concepts_of(word, speaker)) for word in words]
    _typed_verbs(words, per_word, speaker)
    _modal_want(words, per_word)
    _first_as_adverb(words, per_word)
    _best_place(words, per_word)
    if per_word and _WAIT_FIRST.match(text):
        per_word[0].discard("turn")  # "attendez, ça coupe…": wait!, not whose turn
    _por_as_preposition(words, per_word)
    added: set[str] = set()
    for start, end, (_, add, drop) in idiom_spans(words):
        added |= add
        for index in range(start, end):
            per_word[index] -= drop
    _out_of_a_pile(words, per_word)
    for index in range(1, len(words)):
        if words[index] == "out" and "discard" in per_word[index - 1]:
            per_word[index].discard("go_out")  # "throw out the four", "chuck out": discard
        if words[index] == "fora" and "discard" in per_word[index]:
            per_word[index - 1].discard("play")  # "joga fora": throwing away, no play
    _others_do(text, words, per_word, names)
    _another_goes_out(words, per_word, names)
    _compared(words, per_word)
    negated = _negated(words, per_word)
    concepts: set[str] = set(added).union(*per_word)
    if speaker in (None, "nl"):
        concepts |= separable_concepts(words)
    named_at = {index for index, word in enumerate(words) if word in names}
    piles, pile_at = _piles(words, upper, speaker, named_at)
    piles, placed_at = _placed_spots(words, piles)
    if piles and not any(spec.source for spec in piles) and _only_wanting(words, per_word):
        concepts.discard("take")  # "ik wil de rode aas op noord": wanting it there, a play
    if "end_turn" in concepts and len(piles) >= 2 and any(spec.onto for spec in piles):
        concepts.discard("end_turn")  # "passa o monte do leste pro norte": a pile moved on
        concepts.add("move")
    if placed_at or any(at < len(words) and words[at] in _SCREEN_SIDES for at in pile_at):
        concepts -= {"lead", "score"}  # "op de lege plek bovenaan": a place, not the leader
    cards = _unnegated(words, _cards(words, pile_at | named_at, speaker), speaker, pile_at)
    cards = _said_again(cards)
    if "turn" in concepts and not (cards or piles) and _only_to_play(words, per_word):
        concepts.discard("play")  # "c'est à moi de jouer", "my turn to play": whose turn
    stripped = text.strip()
    lead_at = _lead_at(stripped, words)
    lead = words[lead_at] if words else ""
    asked_in_words = (
        (  # "Ben threw the nine": the name, not Dutch "ben (ik)?"
            _asks_at(words, lead_at, speaker, bool(_CLAUSE_BREAK.search(stripped)))
            and words[lead_at] not in names
        )
        or _asks_after_opener(words[lead_at:])
        or _wonders(words, concepts)
        or bool(_ASKING_ANYWHERE & set(words))
        or ("quoi" in words and not cards)  # "c'est quoi une suite", not "…à l'ouest, quoi"
        or ("how", "much") in itertools.pairwise(words)
    )  # "if I keep a wild, how much is that": a question, at its end
    asked = stripped.endswith("?") or asked_in_words
    # Said of another player ("Zoé threw the queen again"): never the speaker's move, and
    # no question either, unless asked as one.
    about_another = not asked and _about_another(stripped, words, names)
    question = asked or about_another
    worth = _WORTH.search(text) is not None
    # Asked by the "?" alone: "the red queen on that king?", a move offered, not a rule.
    only_marked = asked and not asked_in_words
    if worth or _alternatives(words, per_word, speaker):
        # "vale a pena pegar a dama?", "je pioche ou je prends la dame": advice asked
        question, only_marked = True, False
        concepts.add("should")
        if worth:
            concepts -= {"value", "score"}  # not what the queen is worth
    negated = negated or (not question and _later(words, per_word))
    negated = negated or bool(_NO_WAY.search(text)) or _not_before_particles(words)
    _in_context(words, concepts, cards, question)
    pairs = set(itertools.pairwise(words))
    if pairs & {("ou", "pas"), ("ou", "non")} and words.count("ou") == 1:
        concepts.discard("where")  # "j'ai la dame ou pas ?": "or", not "où"
    if _yes_no_est_ce_que(words):
        concepts.discard("what")  # "est-ce que je peux…": yes or no, not "what"
    if ("ce", "qui") in pairs and words.count("qui") == 1:
        concepts.discard("who")  # "qu'est-ce qui…" asks what, not who
        concepts.add("what")
    if not question and (pairs & _HANDING_OVER or "contigo" in words):
        concepts.add("end_turn")  # "over to you", "à toi", "jij bent": the turn passes on
    if "understand" in concepts and not question and not set(words) & _PASSING:
        concepts.discard("end_turn")  # "ik snap er niks van": nothing understood, no pass
    if ("how", "much") in pairs and cards and "many" not in words:
        concepts.add("value")  # "how much is a joker": what it is worth
    if ("est", "tout") in pairs:
        concepts.add("end_turn")  # "c'est tout", that's all
    if not question and "," in stripped:  # "I'm good, next", "beleza, próximo"
        tail = normalize(stripped.rsplit(",", 1)[1])
        for span in idiom_spans(tail):
            phrase, add = span[2][0], span[2][1]
            if phrase[0] == "^" and phrase[-1] == "$":
                concepts |= add
    if another_time(text, speaker):
        concepts.add("past")  # "vorige week won Ben…", "na última partida…": then, not now
    if about_another and _tells_a_number(words, cards) and words[-1] not in CONFIRMING_TAGS:
        concepts.add("told")  # "o Ben com quarenta e dois pontos, coitado": news, not asked
    if refused_out:
        concepts.add("not_going_out")  # "descarta o rei, mas não vou bater ainda"
    if "go_out" in concepts and cards:
        concepts.discard("end_turn")  # "done! out with the king", "klaar! ik ga uit met de heer"
    if "play" in concepts and {"everything", "all", "tout", "tudo", "alles"} & set(words):
        concepts.add("go_out")  # "I lay everything down", "je pose tout"
    if ("lay", "down") in pairs and "discard" in concepts:
        concepts.add("go_out")  # "lay down, discard the king"
    if {"play", "discard"} <= concepts and _THEN & set(words) and not piles and not question:
        # Laying cards down, then discarding, is going out ("je pose mes cartes et je
        # défausse le cinq", "vou baixar o jogo todo e descartar o sete"): sent as a plain
        # discard, it would throw the round's way out away. Two clauses: one verb and a
        # particle ("jogo fora", "gaat weg") is only a discard.
        concepts.add("go_out")
    if "discard" in concepts and {"rest", "reste", "resto"} & set(words) and not question:
        concepts.add("go_out")  # "the five on the discard and the rest on the table"
    if ("por", "favor") in pairs:
        concepts.discard("play")  # "por favor" is please, not "pôr" (to put)
    if ("da", "me") in pairs:
        concepts.add("take")  # Portuguese "dá-me": give me (alone, "da" is "of the")
    if "pas" in words and ("ne" in words or "n" in words):
        concepts.discard("end_turn")  # French "ne ... pas": a negation, not Dutch "ik pas"
    return Reading(
        tuple(words),
        frozenset(concepts),
        cards,
        piles,
        question,
        negated,
        lead,
        about_another,
        only_marked,
    )


# The games' names, in the four languages: their kings, corners, fives and crowns are
# neither cards nor piles.
_GAME_NAMES = re.compile(
    r"\bkings\s+in\s+(?:the\s+)?corner\b|\bau(?:x)?\s+rois?\s+dans\s+(?:le|les)\s+coins?"
    # (named after a word that names a game: "só reis nos cantos, né?" is the corner rule)
    r"|\b(?:o|de|do|no|nos|em|jogo|jogar|jogamos|joga|jogando)\s+reis\s+nos?\s+cantos?"
    r"|\bkoningen\s+in\s+de\s+hoek(?:en)?"
    r"|\b(?:five\s+crowns|cinq\s+couronnes|cinco\s+coroas|vijf\s+kronen)\b",
    re.IGNORECASE,
)
# What a wild card does, said instead of its name: "a carta que vale qualquer coisa",
# "la carte qui remplace tout", "the card that can be anything".
_AS_ANYTHING = re.compile(
    r"\b(?:valem?\s+(?:por\s+)?qualquer\s+(?:coisa|carta|outra)"
    r"|substitui\s+qualquer\s+(?:coisa|carta)"
    r"|remplacen?t?\s+(?:tout|n.importe\s+quoi|n.importe\s+quelle\s+carte)"
    r"|(?:can\s+be|stands?\s+for|counts?\s+as|replaces?)\s+any(?:thing|\s+card)"
    r"|kan\s+alles\s+zijn|telt\s+als\s+alles|vervangt\s+alles)\b",
    re.IGNORECASE,
)
# "the six of clubs, no wait, the six of spades": what follows the correction stands.
_WAIT = r"(?:wait|hang\s+on|hold\s+on|attends?|espera|pera[ií]?|wacht)"
# "Wait" said first, on its own: an interjection ("attendez, ça coupe, vous m'entendez ?").
_WAIT_FIRST = re.compile(
    rf"^\s*(?:{_WAIT}|attendez|espere|wacht\s+even)\s*(?:[,.!…]|$)", re.IGNORECASE
)
_CORRECTION = re.compile(
    rf"\b(?:no|non|n[aã]o|nee)\W+{_WAIT}(?!\w)|\bi mean\b"
    rf"|\b{_WAIT}\W+(?:no|non|n[aã]o|nee)\b"
    rf"|(?:,|…|\.\.+)\s*(?:no|non|n[aã]o|nee)(?:\s+(?:joh|man|mec|cara|hoor))?\s*,(?!\s*{_WAIT}(?!\w))"
    r"|\bje veux dire\b|\bou melhor\b|(?:,|…|\.\.+)\s*quer\s+dizer\b|\bik bedoel\b"
    r"|\bquis\s+dizer\b|\bi\s+meant\b|\bje\s+voulais\s+dire\b|\bik\s+bedoelde\b"
    r"|\b(?:no|non|n[aã]o|nee)\W+(?:sorry|pardon|desculpa)\b"  # "… nee sorry klaveren negen"
    r"|\b(?:sorry|pardon|desculpa)\W+(?:no|non|n[aã]o|nee)\b"
    r"|\bbeg\s+your\s+pardon\b|(?:,|…|\.\.+)\s*perd[aã]o\b"  # "…, I do beg your pardon, …"
    # Said without commas, as a recogniser writes it: "actually no", "non pardon",
    # "eh nee toch maar".
    r"|\bactually\W+no\b|\b(?:no|nah|nope)\W+actually\b|\bnon\W+pardon\b|\bpardon\W+non\b"
    r"|\b(?:eh\W+)?nee\W+toch(?:\W+maar)?\b"
    # "never mind" said between two moves: what follows stands ("die vrouw pakken, nee
    # laat maar, van de pot"; "le roi, non laisse tomber, la pioche").
    r"|\b(?:never\s*mind|nvm|scratch\s+that|forget\s+(?:it|that)|laisse\s+tomber|oublie\s+[cç]a"
    r"|deixa\s+(?:pra|para)\s+l[aá]|esquece|laat\s+maar|vergeet\s+het)\b"
    # A hesitation before the "no", or a bare "no" between a word and the next card's
    # article: "the eight of clubs uh no the eight of spades", "de boer nee de vrouw".
    r"|\b(?:uh|um|erm|euh|eh|ehm|uhm|hum|ah|oh|oops|ops)\W+(?:no|non|n[aã]o|nee)\b"
    r"|\bo\W+nee\b"  # Dutch "o nee": oh no
    # "leg de 9 af.. nee de ruiten 7", "…... não, espera, no rei"
    rf"|\.\.+\s*(?:no|nah|nope|non|n[aã]o|nee)(?:\W+{_WAIT})?\b"
    # "… nee nee klaveren negen"; not "no NO", Portuguese "on the north-west" typed
    r"|\b(?:(?-i:[Nn]o(?:\W+no)+)|non(?:\W+non)+|n[aã]o(?:\W+n[aã]o)+|nee(?:\W+nee)+)\b"
    r"|,\s*(?:oops|whoops|ops|oups|oeps)\s*,"  # "a dama de ouros, ops, a de espadas"
    r"|(?<=\w),\s*(?:sorry|pardon|desculpa|desculpe)\s*,"  # "six of clubs east, sorry, …"
    # (not Portuguese "no", "in the": "no o este")
    r"|(?<=\w)\s+(?:no\s+(?=the\s)|non\s+(?=(?:le|la|l|de|du)\W)|n[aã]o\s+(?=(?:[oa]|de)\s)"
    r"|nee\s+(?=(?:de|het)\s))",
    re.IGNORECASE,
)
# "…, no, wait, the one of spades": only the suit is corrected, the rest still stands.
_SUIT_ONLY = re.compile(
    r"^(?:(?:the\s+)?one|o|a|le|la|celui|celle|die|de|het)\s+(?:of|de|van)\s+(\w+)$"
    r"|^(?:the\s+)?(\w+)\s+one$",  # "…, no wait, the spade one"
    re.IGNORECASE,
)


# "Want" as a verb of its own is taking ("quero o rei"); before another verb, a modal.
_WANT_WORDS = frozenset(
    {"want", "wanna", "quero", "queria", "quer", "veux", "voudrais", "veut", "wil", "wilde"}
)
_OTHER_VERBS = frozenset({"play", "draw", "discard", "move", "go_out", "end_turn"})


def _typed_verbs(words: list[str], per_word: list[set[str]], lang: str | None) -> None:
    """ "dicsard the seven", "défose la dame": a move's verb mistyped or spelled by ear."""
    for index, word in enumerate(words):
        if per_word[index] or not _unknown(word):
            continue
        if RANK_SOUNDS.closest(word) or SUIT_SOUNDS.closest(word) or PILE_SOUNDS.closest(word):
            continue  # a card's or a pile's word misheard: the card reading's to find
        verb = typed_verb(word, lang)
        if verb is not None:
            per_word[index].add(verb)


def _modal_want(words: list[str], per_word: list[set[str]]) -> None:
    """ "eu quero pôr o rei…", "je veux jouer le sept", "ik wil de zeven spelen": the
    verb said after "want" is the action, not taking."""
    verbs = (found - {"discard"} if "discard_pile" in found else found for found in per_word)
    other_verb = any(found & _OTHER_VERBS for found in verbs)  # "o descarte": the pile
    for index, word in enumerate(words):
        after = words[index + 1] if index + 1 < len(words) else ""
        # "I want to see your faces": "want to" is a modal before any verb
        verb_next = index + 1 < len(words) and bool(per_word[index + 1] & _OTHER_VERBS)
        if word in _WANT_WORDS and (other_verb or verb_next or after in ("to", "om")):
            per_word[index].discard("take")  # "quero descartar um nove": the verb after


_FIRST = frozenset({"first", "primeiro", "premier", "eerst", "eerste"})


def _first_as_adverb(words: list[str], per_word: list[set[str]]) -> None:
    """ "tenho que comprar primeiro", "draw first", "primeiro (eu) compro": first of all,
    not the one in front."""
    for index, word in enumerate(words):
        if word not in _FIRST:
            continue
        after = index + 2 if index + 2 < len(words) and words[index + 1] in _I else index + 1
        verb_next = after < len(words) and per_word[after] & _ACTION_VERBS
        before = index - 2 if index > 1 and words[index - 1] in _ONE_CARD else index - 1
        first_time = index + 1 < len(words) and words[index + 1] in _TIMES  # "first time"
        if verb_next or first_time or (before >= 0 and per_word[before] & _ACTION_VERBS):
            per_word[index] -= {"lead", "score"}


_TIMES = frozenset({"time", "fois", "vez", "keer"})
# "draw one first", "comprar uma primeiro", "en piocher une d'abord": the card left unnamed
_ONE_CARD = frozenset({"one", "a", "uma", "um", "une", "un", "een", "card"})


_I = frozenset({"i", "je", "j", "eu", "ik", "we", "on", "nous", "a", "gente"})


def _best_place(words: list[str], per_word: list[set[str]]) -> None:
    """ "the seven of spades on the best pile", "na melhor pilha": the place left to the
    table (the one that fits), no advice asked."""
    for index, found in enumerate(per_word):
        if "hint" not in found:
            continue
        before = index - 1
        while before >= 0 and words[before] in ARTICLES:
            before -= 1
        if before >= 0 and words[before] in ONTO:
            found.discard("hint")


def _por_as_preposition(words: list[str], per_word: list[set[str]]) -> None:
    """Portuguese "pôr" (to put) loses its accent to "por" (for, by): a verb only before
    what is put ("pôr o rei no canto"), not in "por favor", "por ele"."""
    for index, word in enumerate(words):
        after = words[index + 1] if index + 1 < len(words) else ""
        putting = after in ("o", "a", "os", "as", "este", "esse", "essa", "esta", "meu", "minha")
        if word == "por" and not (putting or after in RANK_WORDS):
            per_word[index].discard("play")


_BETTER = frozenset(
    {"meilleur", "meilleure", "meilleurs", "meilleures", "melhor", "melhores", "best", "beste"}
)
_SUBJECTS = frozenset({"je", "j", "tu", "il", "elle", "on", "eu", "voce", "ele", "ela", "nos"})


def _compared(words: list[str], per_word: list[set[str]]) -> None:
    """ "meilleure que mes cartes", "melhor do que", "better than": a comparison, no advice
    asked (French "meilleur", Portuguese "melhor" are "best" and "better" alike; not "la
    meilleure que je peux jouer", the best I can play)."""
    for index in range(len(words) - 1):
        after = words[index + 1 : index + 3]
        than = (
            after[0] in ("than", "dan")
            or after == ["do", "que"]
            or (after[0] == "que" and (len(after) == 1 or after[1] not in _SUBJECTS))
        )
        if words[index] in _BETTER and than:
            per_word[index].discard("hint")  # no advice asked


# Who else may do something in a line: "…e alguém pega mais gelo", "…and he takes it".
_THIRD_PERSONS = frozenset(
    {"he", "she", "they", "il", "elle", "ils", "elles", "ele", "ela", "eles", "elas", "hij",
     "zij"}
)  # fmt: skip


def _others_do(
    text: str, words: list[str], per_word: list[set[str]], names: frozenset[str]
) -> None:
    """The speaker's move, then "and" someone else doing something ("descarta o nove de
    paus e alguém pega mais gelo aí", "discard the queen and Ben takes the crisps"): the
    verb right after that someone is theirs and names nothing of the speaker's."""
    if text.rstrip().endswith("?"):
        return  # "do I get another turn after someone goes out?"
    for at in range(2, len(words) - 1):
        word = words[at]
        if words[at - 1] not in _AND:
            continue
        if not (word in names or word in _THIRD_PERSONS or "someone" in per_word[at]):
            continue
        if not any(found & _ACTS for found in per_word[: at - 1]):
            continue  # only when the speaker's own move came first
        for after in (at + 1, at + 2):
            if after < len(words):
                per_word[after] -= _ACTS
        return


_AND = frozenset({"and", "e", "et", "en", "while", "pendant", "enquanto", "terwijl"})
# Words that pass the turn by themselves, whatever else the line says.
_PASSING = frozenset({"pass", "passe", "passo", "passa", "klaar", "done", "next", "fini"})
_IF = frozenset({"if", "when", "once", "si", "quand", "se", "quando", "als", "wanneer"})


def _another_goes_out(words: list[str], per_word: list[set[str]], names: frozenset[str]) -> None:
    """ "if Ben goes out, do I still get a turn?": another player going out is someone's,
    the rule of the last turn, not the speaker going out."""
    for at in range(1, len(words) - 1):
        if (
            words[at - 1] in _IF
            and words[at] in names
            and "go_out" in per_word[at + 1] | (per_word[at + 2] if at + 2 < len(words) else set())
        ):
            per_word[at].add("someone")


_TO = frozenset({"to", "de", "d", "te"})  # before an infinitive: "turn to play", "de jouer"


def _only_to_play(words: list[str], per_word: list[set[str]]) -> bool:
    """Every word of playing is an infinitive after "to", "de", "te" ("à moi de jouer",
    "a minha vez de jogar", "my turn to play"): what the turn is for, no move named."""
    playing = [at for at, found in enumerate(per_word) if "play" in found]
    return bool(playing) and all(at and words[at - 1] in _TO for at in playing)


def _only_wanting(words: list[str], per_word: list[set[str]]) -> bool:
    """Every word that says "take" is a word of wanting ("I want…", "ik wil…")."""
    taking = [word for word, found in zip(words, per_word, strict=True) if "take" in found]
    return bool(taking) and all(word in _WANT_WORDS for word in taking)


def _of_as_a(words: list[str]) -> None:
    """ "seven a spades", "queen a diamonds": "of" run into "a" by the recogniser."""
    for index in range(1, len(words) - 1):
        rank, suit = words[index - 1], words[index + 1]
        if words[index] == "a" and rank in RANK_WORDS and suit in SUIT_WORDS:
            words[index] = "of"


def _to_misheard(words: list[str]) -> None:
    """ "seven of spades two west": "two" (or "too") between a card's suit and a pile is
    "to" heard as a number."""
    for index in range(1, len(words) - 1):
        after = words[index + 1 + (words[index + 1] == "the" and index + 2 < len(words))]
        if (
            words[index] in ("two", "too")
            and words[index - 1] in SUIT_WORDS
            and (after in HORIZONTAL or after in VERTICAL or after in CORNER_WORDS)
        ):
            words[index] = "to"
        # "seven a spades", "queen a diamonds": "of" run into "a" by the recogniser
        if (
            words[index] == "a"
            and words[index - 1] in RANK_WORDS
            and words[index + 1] in SUIT_WORDS
        ):
            words[index] = "of"


_RANK_LETTERS = {"k": "king", "q": "queen", "j": "jack", "a": "ace"}
_ONE_SUIT = frozenset({"spade", "heart", "club", "diamond", "star"})


def _rank_letters(words: list[str], upper: list[bool], lang: str | None) -> None:
    """ "K♠", "Q on the K", "the red Q", "q from pile": a card's letter as its rank.

    A capital K or Q alone, or any of the four letters right before a suit; "a" and "j"
    only so ("A♠", "J♥"), since "a" is also an article and "J'ai" French; a lone "q" in
    English, which has no other use for it ("k" is chat for "ok")."""
    for index, word in enumerate(words):
        if word not in _RANK_LETTERS:
            continue
        before_suit = index + 1 < len(words) and words[index + 1] in SUIT_WORDS
        if word == "a" and not upper[index] and before_suit and words[index + 1] in _ONE_SUIT:
            continue  # "put a spade on the empty pile": any spade
        capital = upper[index] and word in ("k", "q")
        if before_suit or capital or (word == "q" and lang in (None, "en")):
            words[index] = _RANK_LETTERS[word]


_DUTCH_PRONOUNS = frozenset({"ik", "je", "jij", "hij", "ze", "zij", "we", "wij", "u", "jullie"})


def _wilde_as_verb(words: list[str]) -> None:
    """Dutch "wilde" before its subject is "wanted" ("wat wilde ik zeggen"), not "wild"."""
    for index in range(len(words) - 1):
        if words[index] == "wilde" and words[index + 1] in _DUTCH_PRONOUNS:
            words[index] = "wou"


def _de_misheard(words: list[str]) -> None:
    """ "le valet de deux cœurs": "de" heard as "deux" between a card's rank and its suit."""
    for index in range(1, len(words) - 1):
        before = words[index - 1]
        rank_before = words[index - 2] if index > 1 else ""
        after_rank = before in RANK_WORDS or (before == "de" and rank_before in RANK_WORDS)
        if words[index] == "deux" and words[index + 1] in SUIT_WORDS and after_rank:
            words[index] = "de"


def _name_spelt(word: str, names: frozenset[str]) -> str:
    """A player's name as a recogniser or a hurried thumb spells it ("zoey" for Zoé,
    "anna" for Ana): doubled consonants once, a silent "y" or "h" at the end dropped."""
    if word in names or len(word) < 3:
        return word
    plain_word = re.sub(r"([^aeiou])\1", r"\1", word)
    plain_word = plain_word[:-1] if plain_word[-1] in "yh" else plain_word
    return plain_word if plain_word in names else word


def speaker_of(lang: str | None) -> str | None:
    return lang if lang in LANGUAGES else None


_CLAUSE = re.compile(r"[,;]")


def _without_refused_clauses(text: str, lang: str | None) -> str:
    """ "I don't want the discard, deck please", "je veux pas la défausse, la pioche",
    "ik wil de aflegstapel niet, de pot": a clause with a "not" refuses what it names;
    the line stands for the rest (when there is a rest)."""
    parts = _CLAUSE.split(text)
    if len(parts) < 2:
        return text
    negations = _CLAUSE_NEGATIONS | ({"pas", "ne", "n"} if lang in (None, "fr") else set())
    refused = [bool(negations & set(normalize(part))) for part in parts]
    if all(refused) or not any(refused):
        return text
    kept = ", ".join(
        _the_one_of(part, parts[at - 1] if at and refused[at - 1] else "")
        for at, (part, out) in enumerate(zip(parts, refused, strict=True))
        if not out
    )
    return kept + ("?" if text.rstrip().endswith("?") else "")  # still a question


# "…, the one of clubs on east", "…, celui de trèfle", "…, o de paus no leste"
_ONE_OF = re.compile(
    r"^\s*(?:(?:the\s+)?one|o|a|le|la|celui|celle|die|de|het)\s+(?:of|de|van)\s+(\w+)(.*)$",
    re.IGNORECASE | re.DOTALL,
)


def _the_one_of(part: str, refused: str) -> str:
    """ "not the six of spades, the one of clubs": the refused card's rank, this suit."""
    found = _ONE_OF.match(part)
    if found is None or plain(found[1]) not in SUIT_WORDS:
        return part
    ranks = [word for word in normalize(refused) if word in RANK_WORDS]
    return f"{ranks[-1]} of {found[1]}{found[2]}" if ranks else part


def _refuses_going_out(text: str, lang: str | None) -> bool:
    """A clause with a "not" speaks of going out ("…, but I'm not going out yet")."""
    negations = _CLAUSE_NEGATIONS | ({"pas", "ne", "n"} if lang in (None, "fr") else set())
    for part in _CLAUSE.split(text):
        words = normalize(part)
        if negations & set(words) and any("go_out" in concepts_of(w, lang) for w in words):
            return True
    return False


# Not "ne" alone: Portuguese "né?" asks for agreement ("só reis nos cantos, né?").
_CLAUSE_NEGATIONS = frozenset({"not", "dont", "don", "nao", "niet", "never", "jamais", "geen"})


def only_excusing(words: tuple[str, ...]) -> bool:
    """ "excusez-moi", "sorry": said to the room, before what is asked (if anything)."""
    return bool(_EXCUSE & set(words)) and set(words) <= _EXCUSE | {"me", "moi", "mij"}


def only_waiting(text: str) -> bool:
    """The line is "wait!" alone ("attendez", "wacht even"): said to the room."""
    match = _WAIT_FIRST.match(text)
    return match is not None and not text[match.end() :].strip(" ,.!…?")


def corrects_itself(text: str) -> bool:
    """Whether the line takes back what it said first ("…, no wait, …")."""
    return _CORRECTION.search(text) is not None


def _corrected(text: str) -> str:
    """What a line that corrects itself stands for: its last part; nothing when nothing
    follows ("six of spades on east, no wait"): a line taken back names no action.

    The verb said before the correction still stands when the last part has none:
    "discard the king of spades, no, the queen of spades" discards the queen."""
    text = _MEANT_LAST.sub("", text)  # "…, the six of spades I mean"
    parts = _CORRECTION.split(text)
    if len(parts) == 1:
        return text
    last = parts[-1].strip(" ,.;:!")
    suit_only = _SUIT_ONLY.match(last)
    suit = suit_only and (suit_only[1] or suit_only[2])
    if suit and plain(suit) in SUIT_WORDS:
        head = parts[0].split()
        suits = [at for at, word in enumerate(head) if plain(word) in SUIT_WORDS]
        if suits:
            head[suits[0]] = suit  # "seis de paus no sete…, não, o de espadas"
            return " ".join(head)
    of_suit = _OF_SUIT.match(last)
    if of_suit and plain(of_suit[1]) in SUIT_WORDS and not _names_a_card(of_suit[2]):
        head = parts[0].split()
        suits = [at for at, word in enumerate(head) if plain(word) in SUIT_WORDS]
        if suits:  # "seis de espadas, não, de paus, no leste": the suit, and the rest
            head[suits[0]] = of_suit[1]
            return " ".join([*head, of_suit[2]])
    if _names_a_pile(last) and not _names_a_card(last) and not _verbs_in(last):
        head = _before_pile(parts[0])  # "six of spades on north, sorry, I mean east"
        if head is not None and _names_a_card(head):
            return f"{head} {last.strip()}"
    if _onto_a_card(last) and not _verbs_in(last):
        # "three of clubs north, no, on the four of hearts": the target corrected
        head = _before_pile(parts[0])
        head = _before_onto(parts[0]) if head is None else head
        if _names_a_card(head):
            return f"{head} {last}"
    target = _pile_said(parts[0]) or _onto_said(parts[0])
    if (
        target is not None
        and _names_a_card(last)
        and not _names_a_pile(last)
        and not _onto_a_card(last)
        and not any(plain(word) in ONTO for word in last.split())  # "…, 7s on w"
        and not _verbs_in(last)
        and _names_a_card(parts[0][: len(parts[0]) - len(target)])
    ):
        # "6 de espadas no oeste, ops, quis dizer o 7 de espadas": the card corrected,
        # the pile it went on (or the card it went on) still stands
        said = [word for word in parts[0].split() if _verbs_in(word)]
        return " ".join([*said[:1], last, target])
    # The card or the draw pile corrected, the verb kept: not "pass the chips, no, the
    # bowl"; "I'll take the queen, nah actually, from the deck" takes from the deck.
    if (_names_a_card(last) or _names_a_source(last)) and not _verbs_in(last):
        said = [word for word in parts[0].split() if _verbs_in(word)]
        last = " ".join([*said[:1], last])
    return last


# "I mean" said last, after the correction it closes: no correction of its own.
_MEANT_LAST = re.compile(
    r"[\s,]*\b(?:i meant?|je veux dire|quer dizer|bedoel ik|ik bedoel)\W*$", re.IGNORECASE
)
# "…, não, de paus, no leste": only the suit corrected ("of clubs", "van klaveren").
_OF_SUIT = re.compile(r"^\s*(?:of|de|van)\s+(\w+)\W*(.*)$", re.IGNORECASE | re.DOTALL)
_PILE_WORDS = frozenset(
    {*VERTICAL, *HORIZONTAL, *CORNER_WORDS, *SCREEN_VERTICAL, *SCREEN_HORIZONTAL}
)


def _names_a_pile(text: str) -> bool:
    return any(_pile_word(word) for word in normalize(text))


def _pile_word(word: str) -> bool:
    """A pile's word, or a screen corner said as one ("linksboven", "rechtsonder")."""
    return word in _PILE_WORDS or any(
        word[:cut] in _PILE_WORDS and word[cut:] in _PILE_WORDS for cut in range(3, len(word) - 2)
    )


def _pile_start(tokens: list[str]) -> int | None:
    """Where the first pile said begins, with the "on" that leads to it."""
    for at, token in enumerate(tokens):
        if any(_pile_word(word) for word in normalize(token)):
            while at and all(w in ONTO or w in ARTICLES for w in normalize(tokens[at - 1])):
                at -= 1
            return at
    return None


def _pile_said(text: str) -> str | None:
    """The first pile said, with its "on" ("no oeste", "on the west")."""
    tokens = text.split()
    start = _pile_start(tokens)
    return None if start is None else " ".join(tokens[start:])


def _before_pile(text: str) -> str | None:
    """The words before the first pile said, and the "on" that leads to it: the card of
    a line whose pile is corrected ("valet de cœur sur l'ouest… non, sur le nord")."""
    tokens = text.split()
    start = _pile_start(tokens)
    return None if start is None else " ".join(tokens[:start])


def _onto_start(tokens: list[str]) -> int | None:
    """Where the first "on" after a card is."""
    for at, token in enumerate(tokens):
        if at and plain(token) in ONTO and _names_a_card(" ".join(tokens[:at])):
            return at
    return None


def _before_onto(text: str) -> str:
    """The words before the first "on" after a card: the card of a line whose target
    card is corrected ("seven of spades on the eight of clubs, no, on the eight of…")."""
    tokens = text.strip(" ,.;:!").split()
    start = _onto_start(tokens)
    return " ".join(tokens if start is None else tokens[:start])


def _onto_said(text: str) -> str | None:
    """The first "on" after a card and what follows it ("on the seven of hearts")."""
    tokens = text.strip(" ,.;:!").split()
    start = _onto_start(tokens)
    return None if start is None else " ".join(tokens[start:])


def _names_a_card(text: str) -> bool:
    return any(_card_word(word) or split_compound(word) for word in normalize(text))


def _names_a_source(text: str) -> bool:
    """A pile drawn from ("from the deck", "van de pot"), said with its preposition."""
    words = normalize(text)
    return (
        bool(words)
        and words[0] in FROM
        and any(concepts_of(word) & {"stock", "discard_pile"} for word in words[1:])
    )


def _onto_a_card(text: str) -> bool:
    """A target named by its top card ("on the four of hearts", "no sete de copas")."""
    words = normalize(text)
    return bool(words) and words[0] in ONTO and _names_a_card(text)


def _verbs_in(text: str) -> bool:
    return any(concepts_of(word) & _ACTION_VERBS for word in normalize(text))


_ACTION_VERBS = _OTHER_VERBS | {"take"}


def _said_again(cards: tuple[CardSpec, ...]) -> tuple[CardSpec, ...]:
    """A card said again, more fully, right after: one card ("the queen, queen of spades",
    "de cœur, le quatre de cœur")."""
    kept: list[CardSpec] = []
    for spec, after in itertools.zip_longest(cards, cards[1:]):
        if after is not None and _restated(spec, after):
            continue
        kept.append(spec)
    return tuple(kept)


def _restated(spec: CardSpec, after: CardSpec) -> bool:
    if spec.onto or after.onto or spec.joker or spec.wild or after.at - spec.at > 4:
        return False
    if after.rank is None or (spec.rank is not None and spec.rank != after.rank):
        return False
    if spec.rank is None and spec.suit is None and spec.colour is None:
        return False
    same_suit = spec.suit is None or spec.suit == after.suit
    same_colour = spec.colour is None or spec.colour == (SUIT_COLOUR.get(after.suit or ""))
    return same_suit and same_colour and (after.suit is not None or spec.suit is None)


# English question starts that open a statement in another language: "do monte" (pt).
_NOT_QUESTION_STARTS = {"pt": frozenset({"do", "da"}), "fr": frozenset({"ben"})}  # "bon ben…"
_ASKING_ANYWHERE = frozenset({"combien", "quanto", "quantos", "quantas", "hoeveel"})
_VOCATIVE = re.compile(r"^\W*[^\W\d_]+\s*,")


# A question word right after a preposition, article or "and" opening the line, as a
# recogniser writes it with no "?": "à quel moment…", "o que ficou…", "at what point…".
_OPENERS = frozenset(
    {"a", "o", "at", "em", "op", "in", "and", "et", "e", "en", "so", "alors", "entao", "dus",
     "but", "mais", "mas", "maar", "ok", "okay"}
)  # fmt: skip
_WH = frozenset(
    {"who", "whose", "what", "whats", "which", "how", "when", "where", "why", "qui", "que",
     "quoi", "quel", "quelle", "quels", "quelles", "combien", "quand", "comment", "quem",
     "qual", "quais", "quanto", "quantos", "quantas", "quando", "como", "onde", "wie", "wat",
     "welke", "welk", "hoeveel", "wanneer", "hoe", "waar", "waarom"}
)  # fmt: skip


def _asks_after_opener(words: list[str]) -> bool:
    if len(words) > 2 and words[0] in _OPENERS and words[1] in _WH:
        return True
    if len(words) > 3 and words[0] in _IF and words[1] not in CONNECTORS | SUIT_WORDS.keys():
        return True  # "als ik oost op noord leg, krijg ik een gat" ("si de pique": a six)
    # "on est à quelle manche", "estamos em que rodada", "we zitten in welke ronde"
    if any(a in _PLACE_PREPOSITIONS and b in _WHICH for a, b in itertools.pairwise(words)):
        return True
    # "and what if I put…", "et si je mets…", "e se eu colocar…": a move only wondered about
    return len(words) > 2 and words[0] in _OPENERS | {"what"} and words[1] in _IF


_IF = frozenset({"if", "si", "se", "als"})
_PLACE_PREPOSITIONS = frozenset({"a", "em", "in", "op", "on", "at", "dans", "na", "no", "au"})
_WHICH = frozenset(
    {"quel", "quelle", "quels", "quelles", "qual", "quais", "welke", "welk", "which"}
)
_OR_NOT = frozenset({("or", "not"), ("ou", "pas"), ("ou", "non"), ("ou", "nao"), ("of", "niet")})
_WONDERING = frozenset({"could", "might", "wonder", "wondering", "pergunto", "demande"})
_WOULD_LIKE = frozenset({"like", "love", "prefer", "rather"})


def _wonders(words: list[str], concepts: set[str]) -> bool:
    """A move wondered about, not asked for: "I could go out", "would you take it?",
    "tu prendrais la dame", "je prends la dame ou pas", "i wonder if I should…"."""
    if _WONDERING & set(words) or tuple(words[-2:]) in _OR_NOT:
        return True
    # "would you take the queen or draw" (not "I would like"), "tu prendrais", "você pegaria"
    would = any(w == "would" and after not in _WOULD_LIKE for w, after in itertools.pairwise(words))
    return "you" in concepts and (would or "conditional" in concepts)


def _about_another(text: str, words: list[str], names: frozenset[str]) -> bool:
    """A line opening with a player's name, not set apart by a comma, speaks of that
    player ("Zoé should play the seven", "Ben took the queen"), as does a name before
    "has" ("haha zoë heeft alle jokers"): never the speaker's move."""
    start = 1 if words[:1] in (["o"], ["a"]) else 0  # "o Ben vai pegar…", "a Zoé tem…"
    if len(words) > start + 1 and words[start] in names and not _VOCATIVE.match(text):
        return True
    return any(
        word in names and "have" in concepts_of(after) and after not in _ASKING_HAVE
        for word, after in itertools.pairwise(words)
    )


_ASKING_HAVE = frozenset({"heb", "tenho", "ai", "have"})  # "Ben, have you…": not a third person


def _lead_at(text: str, words: list[str]) -> int:
    """Where a line's own words start, past a name or interjection set apart by a comma
    ("Ben, jij bent" is no question, "ben ik?" is one) and past hesitations, as a
    recogniser writes them ("wait do I have to draw", "euh je peux poser")."""
    # Not a verb set apart: "acabei, pode passar" says it is done (and passes the turn on)
    if not words:
        return 0  # "Ð,": a comma after no word the assistant reads
    vocative = _VOCATIVE.match(text) and not concepts_of(words[0]) & _ACTION_VERBS
    at = 1 if len(words) > 1 and vocative else 0
    while at < len(words) - 1 and words[at] in _HESITATIONS:
        at += 1
    if 0 < at < len(words) - 1 and words[at - 1] in _EXCUSE and words[at] in ("me", "moi"):
        at += 1  # "excuse me, who…", "excusez-moi, …"
    return at


_EXCUSE = frozenset({"excuse", "excusez", "pardon", "sorry", "desculpa", "desculpe"})


# Words a spoken line may open with before what it says; never a question or a move.
_HESITATIONS = frozenset(
    {*HESITATION_SOUNDS, "oh", "bon", "bah", "nou", "wait", "attends", "attend", "espera",
     "pera", "wacht", "ja", "ok", "okay", "oke", "well", "hey", "olha", "tipo", "alors",
     "entao", "dus", *_EXCUSE}
)  # fmt: skip
_CLAUSE_BREAK = re.compile(r"[,;.!]\s*\w")
# Two words that ask when they open a line: "je peux poser ?", "dá para fechar?".
_ASKING_PAIRS = frozenset(
    {("je", "peux"), ("je", "dois"), ("tu", "peux"), ("on", "peut"), ("da", "para"),
     ("da", "pra"), ("eu", "posso"), ("have", "i"), ("have", "you"), ("sera", "que"),
     ("me", "diga"), ("me", "diz"), ("me", "fala"), ("me", "conta")}
)  # fmt: skip


def _yes_no_est_ce_que(words: list[str]) -> bool:
    """ "est-ce que…" opening a yes-or-no question (not "qu'est-ce que…", what)."""
    for index in range(len(words) - 2):
        if words[index : index + 3] == ["est", "ce", "que"]:
            if index > 0 and words[index - 1] in ("qu", "que", "quoi"):
                return False
            others = words[:index] + words[index + 3 :]
            return not {"quoi", "que", "qu", "what"} & set(others)
    return False


def _asks_at(words: list[str], at: int, speaker: str | None, several_clauses: bool) -> bool:
    """Whether the line, from its own first word, opens as a question does."""
    lead = words[at] if at < len(words) else ""
    if lead == "pode" and at + 1 < len(words) and concepts_of(words[at + 1]) & _ACTION_VERBS:
        return False  # "pode passar a vez": go ahead and pass it (asked with a "?")
    if lead in QUESTION_STARTS and lead not in _NOT_QUESTION_STARTS.get(speaker or "", ()):
        return True
    if speaker in (None, "nl") and _dutch_inverted(words[at : at + 2]):
        return True
    # One clause only: "je peux sortir, je jette le roi" says what the speaker does.
    return tuple(words[at : at + 2]) in _ASKING_PAIRS and not several_clauses


# Who a Dutch question puts after its verb: "krijgt iedereen…", "heeft er iemand…".
_DUTCH_SUBJECTS = frozenset({"iedereen", "iemand", "er", "hij", "zij", "ze", "jij", "u", "men"})


def _dutch_inverted(pair: list[str]) -> bool:
    """A Dutch question as the word order says it: a verb ending in -t, then its subject."""
    return (
        len(pair) == 2 and len(pair[0]) >= 4 and pair[0][-1] == "t" and pair[1] in _DUTCH_SUBJECTS
    )


_STOCK_WORDS = frozenset({"stock", "discard_pile"})


def _out_of_a_pile(words: list[str], per_word: list[set[str]]) -> None:
    """ "uit de pot", "out of the deck": where a card comes from, not going out."""
    for index, found in enumerate(per_word):
        if "go_out" not in found:
            continue
        later = index + 1
        while later < len(words) and (words[later] in ARTICLES or words[later] in CONNECTORS):
            later += 1
        if later > index + 1 and later < len(words) and per_word[later] & _STOCK_WORDS:
            found.discard("go_out")


_COUNT_VERBS = frozenset({"count", "compte", "compter", "conta", "contar", "tel", "tellen"})


_CARD_NEGATIONS = frozenset({"not", "nao", "niet", "geen", "never", "jamais", "skip"})


# Words that join two cards under one "not": "not the six or the seven", "ni… ni…".
_JOINING = frozenset({"or", "nor", "and", "ou", "ni", "et", "nem", "e", "of", "noch", "en"})


def _unnegated(
    words: list[str], cards: tuple[CardSpec, ...], lang: str | None, pile_at: set[int]
) -> tuple[CardSpec, ...]:
    """The cards said, less those refused: "not the queen, I'll draw", "pas la dame",
    "niet de vrouw", "a dama não" name the queen only to rule it out ("kh NE" is a pile,
    not French "ne")."""
    words = [_PILE if at in pile_at else word for at, word in enumerate(words)]
    negations = _CARD_NEGATIONS | _NEGATIONS | ({"pas"} if lang in (None, "fr") else set())
    # "I'll leave the queen", "je laisse la dame", "die vrouw laat ik liggen": refused too.
    words = [_NOT if _leaves(words, at) else word for at, word in enumerate(words)]
    negations = negations | {_NOT}
    kept = []
    previous = -1  # where the card said before this one is
    turned_down: CardSpec | None = None  # the last card refused
    for spec in cards:
        before = spec.at - 1
        while before >= 0 and (words[before] in ARTICLES or words[before] in COLOUR_WORDS):
            before -= 1
        # "I don't want the queen", "não quero a dama": a verb between the "not" and the
        # card; not past another card ("not the joker, the king": the king stands), unless
        # joined to it ("not the six or the seven")
        start = max(0, before - 3)
        if previous >= 0 and not _JOINING & set(words[previous + 1 : spec.at]):
            start = max(start, previous + 1)
        previous = spec.at
        window = [w for w in words[start : before + 1] if w not in ARTICLES][-3:]
        after = spec.at + 1
        while after < len(words) and (
            words[after] in CONNECTORS
            or words[after] in SUIT_WORDS
            or words[after] in RANK_WORDS
            or words[after] in COLOUR_WORDS
        ):
            after += 1  # past the card's own words: "a dama de ouros não"
        refused = (
            (before >= 0 and any(word in negations for word in window))
            or (
                after < len(words)
                # not "the five without going out", "the king, nobody collects hearts"
                and words[after] in negations - _WITHOUT - _NOBODY
                and _ends_clause(words, after)
            )
            or _declined(words, after)
            or (before >= 0 and _less_wanted(words, before))
        )
        if refused:
            turned_down = spec
        elif turned_down is not None and turned_down.rank and spec.rank is None and spec.suit:
            # "pas le six de pique, celui de trèfle": the six, of clubs
            kept.append(replace(spec, rank=turned_down.rank))
        else:
            kept.append(spec)
    return tuple(kept)


_NOT = "\0not"  # a word that refuses the card it is said with (never a word of a line)
_PILE = "\0pile"  # a pile's place, whatever its word
_LEAVING = frozenset(
    {"leave", "leaving", "laisse", "laisser", "laisserai", "deixo", "deixa", "deixar", "deixe",
     "laat", "laten", "keep", "keeping", "garde", "gardes", "garder", "guardo", "guarda",
     "guardar", "houd", "hou", "houden"}
)  # fmt: skip
_LETTING = frozenset({"eu", "me", "moi", "nous", "mij", "ons", "ik", "pra", "para", "que"})
_LYING = frozenset({"liggen", "staan", "zitten"})  # Dutch "laten liggen": leave be


def _leaves(words: list[str], index: int) -> bool:
    """Is ``words[index]`` a verb leaving a card be ("leave the queen", "deixo a dama")?
    Not "let me" ("deixa eu jogar o sete", "laisse-moi jouer"); Dutch "laat" only with
    "liggen" ("laat ik de zeven spelen" is let me play)."""
    word = words[index]
    if word not in _LEAVING:
        return False
    if word in ("laat", "laten"):
        return bool(_LYING & set(words[index + 1 : index + 6]))
    return index + 1 == len(words) or words[index + 1] not in _LETTING


_NO = frozenset({"no", "non", "nao", "nee", "nah", "nope"})
_THANKS = frozenset({"thanks", "thank", "merci", "obrigado", "obrigada", "dank", "bedankt"})
_PREFERRING = frozenset({"rather", "plutot", "prefere", "prefiro", "prefer", "liever"})
_THAN = frozenset({"than", "que", "dan"})


def _declined(words: list[str], after: int) -> bool:
    """ "the queen? no thanks", "la dame ? non merci": the card just named, turned down."""
    if after >= len(words) or words[after] not in _NO:
        return False
    return after + 1 == len(words) or words[after + 1] in _THANKS


def _less_wanted(words: list[str], before: int) -> bool:
    """ "I'd rather have a new card than the queen", "plutôt la pioche que la dame": the
    card after "than" is the one not wanted."""
    return words[before] in _THAN and bool(_PREFERRING & set(words[:before]))


def _ends_clause(words: list[str], index: int) -> bool:
    return index + 1 >= len(words) or words[index + 1] not in ARTICLES


def _has_target(words: list[str]) -> bool:
    return any(word in ONTO for word in words[1:])


_MOVES_ASKED = frozenset({"move", "draw", "discard", "go_out"})


def _in_context(
    words: list[str], concepts: set[str], cards: tuple[CardSpec, ...], question: bool
) -> None:
    """Concepts the words carry only together."""
    if "lead" in concepts:
        concepts.add("score")  # "am I winning?" asks for the standings
    if words and words[0] in _COUNT_VERBS and "card" in concepts:
        concepts.add("how_many")  # "count my cards", "tel mijn kaarten"
        concepts -= {"value", "works"}
    tops = {"top", "bovenaan", "topo"} & set(words)  # not "who's up?" (whose turn)
    if "who" in concepts and tops and not cards and not concepts & _STOCK_WORDS:
        concepts |= {"lead", "score"}  # "who's top?"
    if {"who", "first", "end_turn"} <= concepts:
        concepts |= {"fewest", "card"}  # "who's closest to finishing?", "wie is het eerst klaar?"
        concepts -= {"end_turn"}
    # "would you kindly move the east pile onto north": a move asked for politely
    asked_to = bool(_POLITE & set(words)) and "you" in concepts and concepts & _MOVES_ASKED
    if "conditional" in concepts and (question or "what" in concepts) and not asked_to:
        concepts.add("should")  # "tu jouerais quoi ?", "o que você jogaria?": a hint asked
    if asked_to and "what" not in concepts:
        concepts.discard("should")  # "would" itself: asked for, not advised
    if "end_turn" in concepts and cards and _has_target(words):
        concepts.discard("end_turn")  # "passa o sete pro norte": passing a card on, a move
        concepts.add("move")
    if "af" in words and {"play", "discard"} <= concepts and not _has_target(words):
        concepts.discard("play")  # Dutch "ik leg (de negen) af": afleggen, split
    taking = "take" in concepts and "card" in concepts and not concepts & _STOCK_WORDS
    taking = taking and "face_up" not in concepts  # "the open card": the discard's
    if taking and not cards and not (question and concepts & {"how_many", "have", "what"}):
        concepts.add("draw")  # "grab a card", "ik pak een kaart": a card off the stock
    mine = "me" in concepts and "have" in concepts and "how_many" in concepts
    if mine and not cards and not concepts & {"card", "stock", "left", "draw", "score", "hand"}:
        concepts.add("score")  # "hoeveel heb ik?", "quanto eu tenho?": points, not cards
    colours = [word for word in words if word in COLOUR_WORDS]
    if question and len(colours) >= 2 and not cards:
        concepts.add("build")  # "does it have to be red on black?"
    whats = [index for index, word in enumerate(words) if "what" in concepts_of(word)]
    if len(whats) >= 2 and any(
        word in ONTO or word == "cima" for word in words[whats[0] + 1 : whats[-1]]
    ):
        concepts.add("build")  # "what goes on what?", "wat mag op wat?"


ARTICLES = frozenset(
    {"the", "le", "la", "l", "les", "o", "os", "as", "het", "that", "this", "ce", "cette",
     "a", "an", "un", "une", "um", "uma", "een", "de",
     "top", "pile", "tas", "stapel", "pilha", "monte", "corner", "coin", "canto", "hoek"}
)  # fmt: skip


# "No, I'll draw": a "no" set apart by a comma answers someone; it negates nothing.
_INTERJECTION = re.compile(
    r"^\s*(?:no|nah|nope|non|n[aã]o|nee|neen|come on|kom op|allez|vamos|bora|vai)\s*[,.!;:]",
    re.IGNORECASE,
)  # "come on, six of clubs on east", "kom op, klaveren zes op oost": only urging
_HANDING_OVER = frozenset(
    {("to", "you"), ("your", "turn"), ("your", "go"), ("a", "toi"), ("a", "vous"),
     ("ton", "tour"), ("tua", "vez"), ("sua", "vez"), ("jij", "bent"), ("jouw", "beurt")}
)  # fmt: skip
_WITHOUT = frozenset({"without", "sans", "sem", "zonder"})  # "discard it without going out"
_NOBODY = frozenset({"nobody", "noone", "niemand", "ninguem"})
_NEGATIONS = (
    frozenset({"not", "dont", "don", "nao", "niet", "never", "jamais", "ne", "n", "geen"})
    | _WITHOUT
    | _NOBODY  # "nobody wants the queen": no one's move
)
_ACTS = frozenset({"draw", "take", "discard", "go_out", "end_turn", "move", "play"})
_NEGATIVE_WORDS = frozenset({"nada", "rien", "niks", "niets", "nothing"})
_BEFORE_NT = frozenset({"won", "can", "didn", "doesn", "haven", "shouldn", "wouldn", "couldn"})
# Not now: "almost out", "je vais bientôt sortir", "I'll go out next turn".
_SOON = frozenset(
    {"almost", "nearly", "soon", "later", "presque", "bientot", "quase", "logo", "depois",
     "bijna", "straks", "wont"}  # "wont": "won't" typed without its apostrophe
)  # fmt: skip
_NEXT_TURN = frozenset(
    {("next", "turn"), ("next", "time"), ("prochain", "tour"), ("proximo", "turno"),
     ("proxima", "vez"), ("volgende", "beurt"), ("volgende", "keer")}
)  # fmt: skip


def _later(words: list[str], per_word: list[set[str]]) -> bool:
    """Is the line's move for later, so no move now? "almost out", "going out soon", "je
    vais bientôt sortir", "I'll go out next turn" ("next turn!" alone still ends this one)."""
    pairs = set(itertools.pairwise(words))
    soon = bool(_SOON & set(words) or pairs & _NOT_YET)
    if not soon and not (pairs & _NEXT_TURN):
        return False
    acts = _ACTS if soon else _ACTS - {"end_turn"}
    return any(found & acts for found in per_word) and not any(
        found & _ACTS - acts for found in per_word
    )


# Another time than this game's: a story told, nothing asked or played now.
_PAST = re.compile(
    r"\b(?:last|previous)\s+(?:week|night|time|year|christmas|sunday)\b|\byesterday\b"
    r"|\b(?:in|at)\s+the\s+(?:last|previous)\s+game\b|\bthe\s+other\s+(?:day|night)\b"
    r"|\b(?:la\s+)?semaine\s+derni[eè]re\b|\bla\s+derni[eè]re\s+fois\b"
    r"|\bl['’ ]autre\s+(?:jour|soir)\b|\b(?:à|a|dans)\s+la\s+derni[eè]re\s+partie\b"
    r"|\bontem\b|\b(?:na\s+)?semana\s+passada\b|\bda\s+[uú]ltima\s+vez\b"
    r"|\bno\s+outro\s+dia\b|\bna\s+[uú]ltima\s+partida\b|\bna\s+partida\s+passada\b"
    r"|\bgisteren\b|\bvorige\s+(?:week|keer|maand|zondag)\b|\bvorig\s+(?:jaar|potje|spel)\b"
    r"|\bde\s+vorige\s+keer\b|\bhet\s+vorige\s+spel\b"
    # A memory called up: "remember when…", "tu te souviens quand…", "lembra quando…"
    r"|\bremember\s+(?:the|when|that)\b|\bte\s+souviens\b|\bvous\s+souvenez\b"
    r"|\blembra(?:m)?\s+(?:quando|da|do|daquela|daquele)\b|\bweet\s+je\s+nog\b",
    re.IGNORECASE,
)


def another_time(text: str, lang: str | None = None) -> bool:
    """Whether the line tells of another time than this game's ("last week", French
    "hier"; Dutch "hier" is here)."""
    if lang == "fr" and re.search(r"\bhier\b", text, re.IGNORECASE):
        return True
    return _PAST.search(text) is not None


# Numbers past the cards' ranks, said of points: "vingt points", "quarenta e dois".
_TENS = frozenset(
    {"twenty", "thirty", "forty", "fifty", "sixty", "vingt", "trente", "quarante", "cinquante",
     "soixante", "vinte", "trinta", "quarenta", "cinquenta", "sessenta", "twintig", "dertig",
     "veertig", "vijftig", "zestig"}
)  # fmt: skip
# A last word asking to agree: "o ben tem doiz cartas só né", "Zoé a trois cartes, hein".


def _tells_a_number(words: list[str], cards: tuple[CardSpec, ...]) -> bool:
    """A count or points said as a number (no card: a rank alone, no suit or colour)."""
    said = any(w in _TENS or (w.isdigit() and int(w) > 13) for w in words)
    return said or any(
        spec.rank is not None
        and spec.rank <= 10
        and spec.suit is None
        and spec.colour is None
        and not spec.one
        for spec in cards
    )


# Whether a move is worth it, asked: advice.
_WORTH = re.compile(
    r"\bis it worth\b|\bworth (?:it|taking|picking|drawing|playing)\b|\bvale a pena\b"
    r"|\bcompensa\b|\bvaut le coup\b|\bvaut la peine\b|\bde moeite waard\b|\bloont het\b",
    re.IGNORECASE,
)


def _alternatives(words: list[str], per_word: list[set[str]], lang: str | None) -> bool:
    """Two moves joined by "or": "je pioche ou je prends la dame", "draw or take the
    queen": which one is asked, neither is made."""
    ors = (
        {"or"}
        | ({"ou"} if lang in (None, "fr", "pt") else set())
        | ({"of"} if lang == "nl" else set())
    )
    # "au début ou à la fin du tour": the end as a noun is no move
    acts = [
        concepts - {"end_turn"} if at and words[at - 1] in ARTICLES else concepts
        for at, concepts in enumerate(per_word)
    ]
    for at, word in enumerate(words):
        if word in ors and 0 < at < len(words) - 1:
            before = set().union(*acts[:at]) & _ACTS
            after = set().union(*acts[at + 1 :]) & _ACTS
            if before and after:
                return True
    return False


# Refusing outright: "no way am I chucking the joker", "nem pensar em largar o curinga".
_NO_WAY = re.compile(
    r"\bno way\b|\bnot a chance\b|\bover my dead body\b|\bpas question\b"
    r"|\bhors de question\b|\bjamais de la vie\b|\bnem pensar\b|\bde jeito nenhum\b"
    r"|\bnem a pau\b|\bgeen sprake van\b|\becht niet\b|\bmooi niet\b|\bvergeet het maar\b",
    re.IGNORECASE,
)
# A verb's particle after Dutch "niet" ("ik gooi de joker niet weg"): the clause is negated.
_PARTICLES = frozenset({"weg", "af", "neer", "uit", "op", "meer", "hoor", "toch", "echt"})


def _not_before_particles(words: list[str]) -> bool:
    if "niet" not in words:
        return False
    after = words[len(words) - words[::-1].index("niet") :]
    return bool(after) and all(word in _PARTICLES for word in after)


# "nee, nog niks leggen", "pas encore", "ainda não", "not yet": nothing now.
_NOT_YET = frozenset(
    {("nog", "niks"), ("nog", "niets"), ("nog", "niet"), ("nog", "geen"), ("pas", "encore"),
     ("ainda", "nao"), ("not", "yet"), ("nao", "ainda")}
)  # fmt: skip
_AUXILIARIES = frozenset({"ai", "as", "avons", "avez", "ont", "suis", "es", "sommes", "etes"})


def _negated(words: list[str], per_word: list[set[str]]) -> bool:
    """A negation right before an action word: "don't draw", "ne pioche pas", "niet trekken".

    When another action is said outside the negation ("discard the king, I'm not going
    out"), the negated words lose their actions and the line stands for the other one.
    """
    negated: set[int] = set()
    for index, word in enumerate(words):
        if (
            word in ("nao", "not")
            and index
            and (words[index - 1] in RANK_WORDS or words[index - 1] in SUIT_WORDS)
        ):
            continue  # "a dama não, compro do monte": the card is refused, not the verb after
        if word in _NEGATIONS or (
            word in _BEFORE_NT and words[index + 1 : index + 2] == ["t"]  # "won't", "can't"
        ):
            negated.update(range(index + 1, min(index + 4, len(words))))
        elif word == "pas" and index:  # "je ne sors pas": the verb before
            negated.add(index - 1)
            if words[index - 1] in _AUXILIARIES and index + 1 < len(words):
                negated.add(index + 1)  # "j'ai pas fini", "je suis pas prêt": the participle
        if word == "niet" and index == len(words) - 1:
            negated.update(range(index))  # "speel de zeven niet": Dutch negates the clause
    # "não tenho mais nada", "I can't do nothing": the word is its own negation
    acting = [i for i in negated if per_word[i] & _ACTS and words[i] not in _NEGATIVE_WORDS]
    if not acting:
        return False
    if any(per_word[i] & _ACTS for i in range(len(words)) if i not in negated):
        for i in acting:
            per_word[i] -= _ACTS
        return False
    return True


def _onto_the_one(words: list[str], at: int) -> bool:
    """The "of" at ``at`` follows "onto the one" or "onto the (empty) spot" ("sur celle
    du", "dans la case vide du", "pro espaço vazio do", "no lugar vazio do")."""
    before = at - 1
    spot = False
    while before >= 0:
        word = words[before]
        if word in _THE_ONES or concepts_of(word) & {"side", "empty"}:
            spot = True
        elif word not in ARTICLES:
            break
        before -= 1
    return spot and before >= 0 and words[before] in ONTO


_THE_ONES = frozenset({"celle", "celui", "one", "aquela", "aquele", "die", "dat"})


def _role(words: list[str], index: int) -> tuple[bool, bool]:
    """Whether the word at ``index`` follows an "onto" or a "from" word (articles between)."""
    if index >= 2 and words[index - 1] == "de" and "corner" in concepts_of(words[index - 2]):
        return _role(words, index - 2)  # "no cantinho de cima à esquerda": the corner's role
    before = index - 1
    after_de = False  # "de" is "from" in French, "the" in Dutch: "from" only if nothing else
    while before >= 0:
        word = words[before]
        after = words[before + 1]
        if word == "a" and after in ("l", "la", "le"):  # French "à l'est", "à la dame"
            return True, False
        if word in ONTO or (word in FROM and before and words[before - 1] == "cima"):
            return True, False  # "em cima do norte": on top of north
        if word == "de":
            after_de = after_de or before == index - 1
        elif word in FROM and _onto_the_one(words, before):
            return True, False  # "sur celle du nord", "op die van noord": onto that one
        elif word in FROM:
            return False, True
        elif word not in ARTICLES and word not in COLOUR_WORDS:
            break
        before -= 1
    return False, after_de


def _piles(
    words: list[str], upper: list[bool], lang: str | None = None, named_at: set[int] | None = None
) -> tuple[tuple[PileSpec, ...], set[int]]:
    piles: list[PileSpec] = []
    used: set[int] = set()
    index = 0
    while index < len(words):
        if named_at and index in named_at:
            index += 1  # a player's name is no pile
            continue
        word = words[index]
        following = words[index + 1] if index + 1 < len(words) else ""
        code: str | None = None
        role_at: int | None = None  # where the pile's role is read, if not at its word
        width = 1
        if word in CORNER_WORDS:
            code = CORNER_WORDS[word]
        elif word in VERTICAL and following in HORIZONTAL and not _pile_is(words, index + 1):
            code, width = VERTICAL[word] + HORIZONTAL[following], 2
        elif word in VERTICAL and _heard_side(following, lang):
            side = PILE_SOUNDS.closest(following, lang) or ""
            code, width = VERTICAL[word] + side, 2  # "south waste", "zuid weest": a corner
        elif word in VERTICAL:
            code = VERTICAL[word]
        elif following in HORIZONTAL and (heard := _heard_vertical(word, lang)) is not None:
            code, width = heard + HORIZONTAL[following], 2  # "zuit west": a corner
        elif word in HORIZONTAL and (word != "est" or _est_is_east(words, index)):
            code = HORIZONTAL[word]
        elif (corner := _screen_corner(words, index)) is not None:
            code, width = corner
        elif (screen := _screen_side(words, index)) is not None:
            code, role_at = screen  # "the pile on the right", "celui du haut", "die bovenaan"
        elif upper[index] and word.upper() in PILE_CODES:
            code = word.upper()
        elif upper[index] and (letters := _pile_letters(words, index, lang)) is not None:
            code = letters  # "sur SO", "no L", "op ZW"
        elif (typed := _typed_code(words, index)) is not None:
            code = typed  # "7s on w", "move e onto n", "kh to the nw corner": chat, lower case
        elif (
            len(word) >= 3
            and _unknown(word)
            and (_wants_pile(words, index) or _after_move(words, index))
        ):
            code = PILE_SOUNDS.closest(word, lang, short=True)
        if code is not None:
            onto, source = _role(words, index if role_at is None else role_at)
            piles.append(PileSpec(code, index, onto=onto, source=source, corner=len(code) == 2))
            used.update(range(index, index + width))
        elif "empty" in concepts_of(word) or "corner" in concepts_of(word):
            spec = _empty_spot(words, index)
            if spec is not None:
                piles.append(spec)
                used.update(range(index, index + 2))
                width = 2
        index += width
    return tuple(piles), used


# Words for a pile, and for "the one", before a side said by where it lies on the screen.
_PILE_NOUN_WORDS = frozenset({"pile", "stack", "tas", "pilha", "monte", "stapel", "rij"})
_THE_ONE = frozenset({"celui", "celle", "o", "a", "die", "dat"})
_OF_THE = frozenset({"on", "at", "to", "of", "de", "du", "da", "do", "van", "aan", "op", "in"})


# Never a pile's top card; and sides said after a card ("7S links", "le sept droite"):
# not English "right" and "left" (correct; remaining).
_PLACE_ADVERBS = frozenset(
    {"bovenaan", "onderaan", "links", "rechts", "gauche", "droite", "esquerda", "direita"}
)


def _card_word(word: str) -> bool:
    return word in RANK_WORDS or word in SUIT_WORDS or word in JOKER_WORDS or bool(card_code(word))


def _screen_side(words: list[str], index: int) -> tuple[str, int] | None:
    """A side pile said by where it lies on the screen, and where its role is read: "the
    pile on the right", "le tas de droite", "de stapel van rechts" (its role at the pile's
    word); "on the top one", "sur celui du haut", "op die bovenaan" (after an "on"). A
    screen word alone ("right", "top") is none: "the top one" taken is the pile's top card."""
    code = _SCREEN_SIDES.get(words[index])
    if code is None or words[index + 1 : index + 2] in (["of"], ["de"], ["van"], ["do"]):
        return None  # "on top of north", "em cima do norte": a preposition
    before = index - 1
    while before >= 0 and words[before] in ("the", "la", "le", "het", "l"):
        before -= 1
    if before >= 1 and words[before] in _OF_THE and words[before - 1] in _PILE_NOUN_WORDS:
        return code, before - 1  # "the pile on the right", "le tas de droite"
    if before == index - 1 and before >= 0 and words[before] in _PILE_NOUN_WORDS:
        return code, before  # "de stapel rechts", "a pilha direita": the side right after
    if words[index] in _PLACE_ADVERBS and before >= 0 and _card_word(words[before]):
        return code, index  # "aas bovenaan", "schoppen vijf onderaan": a place, after a card
    if before >= 1 and words[before] in _OF_THE:
        before -= 1  # "celui du haut", "a de cima": past the "of"
        if words[before] in ONTO:
            return code, before + 1  # "pra de cima", "no de baixo": "a" run into "pra"
    if before >= 1 and words[before] in _THE_ONE and words[before - 1] in ONTO:
        return code, before  # "sur celui du haut", "op die bovenaan"
    after = words[index + 1] if index + 1 < len(words) else ""
    onto = any(w in ONTO for w in words[max(0, index - 3) : index])
    if after in ("one", *_PILE_NOUN_WORDS) and words[index] != "right" and onto:
        return code, index  # "on the top one", "on the left pile" (not "the right one")
    return None


_CLIPPED_VERTICAL = {"nor": "N", "nort": "N", "sou": "S", "sout": "S", "sow": "S"}


def _heard_vertical(word: str, lang: str | None) -> str | None:
    """North or south, for an unknown word that sounds like one (before east or west);
    "nor east", "sou west": its first syllable, as a recogniser cuts it."""
    if word in _CLIPPED_VERTICAL:
        return _CLIPPED_VERTICAL[word]
    if len(word) < 4 or not _unknown(word):
        return None
    code = PILE_SOUNDS.closest(word, lang)
    return code if code in ("N", "S") else None


def _heard_side(word: str, lang: str | None) -> bool:
    """An unknown word that sounds like east or west (after "south", "north")."""
    return len(word) >= 4 and _unknown(word) and PILE_SOUNDS.closest(word, lang) in ("E", "W")


# Where an empty side spot is on the screen: "the empty spot at the top" is north.
_SCREEN_SIDES = {
    **SCREEN_VERTICAL,
    **SCREEN_HORIZONTAL,
    "bovenaan": "N", "onderaan": "S", "boven": "N",
}  # fmt: skip


def _placed_spots(
    words: list[str], piles: tuple[PileSpec, ...]
) -> tuple[tuple[PileSpec, ...], set[int]]:
    """An empty side spot placed by a screen word next to it ("het lege plekje bovenaan",
    "the empty spot on the left") is that side's pile."""
    placed: list[PileSpec] = []
    used: set[int] = set()
    for spec in piles:
        near = [*range(spec.at + 1, spec.at + 4), spec.at - 1, spec.at - 2]
        at = next((i for i in near if 0 <= i < len(words) and words[i] in _SCREEN_SIDES), None)
        if spec.code is None and spec.empty and not spec.corner and at is not None:
            spec = replace(spec, code=_SCREEN_SIDES[words[at]])
            used.add(at)
        placed.append(spec)
    return tuple(placed), used


# Words that lead to a second pile: "the pile on the right onto the top one" is two piles
# ("en haut à droite", "at the top on the right" one corner).
_ONTO_BREAKS = frozenset(
    {"onto", "into", "to", "over", "sur", "vers", "para", "pra", "pro", "sobre", "naar", "op"}
)


def _screen_corner(words: list[str], index: int) -> tuple[str, int] | None:
    """ "top right", "right top", "en haut à droite", "rechtsboven": a corner and its width."""
    word = words[index]
    for first, second in (
        (SCREEN_VERTICAL, SCREEN_HORIZONTAL),
        (SCREEN_HORIZONTAL, SCREEN_VERTICAL),
    ):
        if word in first:
            for gap, later in enumerate(words[index + 1 : index + 4], start=1):
                if later in _ONTO_BREAKS or later in _PILE_NOUN_WORDS:
                    break  # "the pile on the right onto the top one": two piles
                if later in second:
                    vertical = first[word] if first is SCREEN_VERTICAL else second[later]
                    horizontal = second[later] if first is SCREEN_VERTICAL else first[word]
                    return vertical + horizontal, gap + 1
    for vertical, v_code in SCREEN_VERTICAL.items():  # Dutch writes one word: "rechtsboven"
        for horizontal, h_code in SCREEN_HORIZONTAL.items():
            if word in (vertical + horizontal, horizontal + vertical):
                return v_code + h_code, 1
    return None


def _unknown(word: str) -> bool:
    """Not a word the assistant knows as anything: a slip may stand for a pile."""
    known = RANK_WORDS.keys() | SUIT_WORDS.keys() | COLOUR_WORDS.keys() | JOKER_WORDS
    if word in known or word in FILLERS or word in ONTO or word in FROM:
        return False
    return not concepts_of(word) and card_code(word) is None


def _after_move(words: list[str], index: int) -> bool:
    """Right after "move" (articles between): the pile that moves, "move o lste…"."""
    before = index - 1
    while before >= 0 and words[before] in ARTICLES:
        before -= 1
    return before >= 0 and "move" in concepts_of(words[before])


def _wants_pile(words: list[str], index: int) -> bool:
    """A pile is expected here: after "on", "sur le", "op de", "to" and the like."""
    return any(_role(words, index))


def _pile_letters(words: list[str], index: int, lang: str | None) -> str | None:
    """A pile typed as its initials in the speaker's language, where a pile goes: after a
    word of placing or of piles ("sur SO", "pilha L"), before one ("O op N"), or ending a
    line after a card ("harten heer ZO"). "O" alone opens a Portuguese sentence as the
    article."""
    code = PILE_LETTERS.get(lang or "", {}).get(words[index].upper())
    before = words[index - 1] if index > 0 else ""
    after = words[index + 1] if index + 1 < len(words) else ""
    placed = (
        before in ONTO
        or before in _TYPED_ONTO
        or before in _PILE_NOUNS
        or after in ONTO
        or after in _TYPED_ONTO
        or (not after and (before in RANK_WORDS or before in SUIT_WORDS))
    )
    return code if placed else None


_TYPED_ONTO = frozenset({"en", "naar", "op", "sur", "pro", "no", "na"})
_TYPED_CODES = frozenset({"n", "e", "s", "w", "ne", "se", "nw", "sw"})


def _typed_code(words: list[str], index: int) -> str | None:
    """A pile's code typed in lower case: where a pile goes or is moved from ("on w",
    "move e"); "nw", "sw" anywhere. Not "ne" or "se" elsewhere: French "ne", Portuguese
    "se" (if), nor "e" (and)."""
    word = words[index]
    if word not in _TYPED_CODES:
        return None
    if word in ("nw", "sw"):
        return word.upper()
    before = index - 1
    while before >= 0 and words[before] in ("the", "le", "la", "l", "o", "de", "het"):
        before -= 1
    prev = words[before] if before >= 0 else ""
    placed = prev in ONTO or prev in _TYPED_ONTO or "move" in concepts_of(prev)
    return word.upper() if placed else None


_PILE_NOUNS = frozenset({"pile", "pilha", "monte", "stapel", "tas", "rij"})


def _pile_is(words: list[str], index: int) -> bool:
    """ "le nord est vide": this "est" says what the pile before it is."""
    return words[index] == "est" and index + 1 < len(words) and words[index + 1] in IS_STATES


def _est_is_east(words: list[str], index: int) -> bool:
    before = words[index - 1] if index else ""
    after = words[index + 1] if index + 1 < len(words) else ""
    if before in IS_AFTER or after in IS_BEFORE:
        return False
    if after in IS_STATES and before not in ONTO | FROM | {"l"}:
        return False  # "la place est vide": what something is, not the east pile
    if not before or not after or after in ONTO | FROM:
        return True
    return before in ONTO | FROM | {"l", "le", "pile", "tas"} or bool(
        concepts_of(before) & {"move", "play"}
    )


def _empty_spot(words: list[str], index: int) -> PileSpec | None:
    """ "an empty corner", "coin vide", "lege hoek", "an empty spot" (no direction)."""
    window = words[max(0, index - 1) : index + 2]
    concepts = [concepts_of(word) for word in window]
    corner = any("corner" in found for found in concepts)
    empty = any("empty" in found for found in concepts)
    named = any(w in VERTICAL or w in HORIZONTAL for w in words[index : index + 4])
    side = any("side" in found for found in concepts) or (
        not named and any(word in _PILE_NOUN_WORDS for word in window)
    )  # "op de lege stapel": an empty pile is a side's, unless named ("…vazia do norte")
    if not empty or not (corner or side):
        return None
    onto, source = _role(words, max(0, index - 1) if index and empty else index)
    return PileSpec(None, index, onto=onto or True, source=source, corner=corner, empty=True)


# Another language's rank that is a common word in the speaker's: French "dois" (must),
# "très" (very), Dutch "ten" ("ten eerste"): no card when that speaker says it.
_NOT_RANKS: dict[str, frozenset[str]] = {
    "fr": frozenset({"dois", "tres", "four"}),  # "le four sonne": the oven
    "nl": frozenset({"ten"}),
}


# A number said with a unit of time is no card ("deux secondes", "two minutes").
_TIME_UNITS = frozenset(
    {"second", "seconds", "sec", "secs", "minute", "minutes", "min", "mins", "hour", "hours",
     "seconde", "secondes", "heure", "heures", "segundo", "segundos", "minuto", "minutos",
     "hora", "horas", "seconden", "minuut", "minuten", "uur",
     # "ça a duré trois semaines", "trois fois", "até às quatro da manhã": no card
     "day", "days", "week", "weeks", "times", "jour", "jours", "semaine", "semaines", "fois",
     "dia", "dias", "semana", "semanas", "vezes", "dagen", "weken", "keer",
     "manha", "tarde", "noite", "matin", "soir"}
)  # fmt: skip


def _cards(words: list[str], pile_at: set[int], lang: str | None = None) -> tuple[CardSpec, ...]:
    cards: list[CardSpec] = []
    used: set[int] = set(pile_at) | {
        at
        for at in range(len(words) - 1)
        if words[at + 1] in _TIME_UNITS
        or (words[at + 1] in ("da", "du", "de") and words[at + 2 : at + 3] == ["manha"])
    }  # "vingt minutes", "às quatro da manhã": times, no cards
    for index, word in enumerate(words):
        if index in used:
            continue
        if word in JOKER_WORDS:
            cards.append(_spec(words, index, None, None, None, joker=True))
            used.add(index)
            continue
        if word in WILD_WORDS and not _is_question_of_wild(words):
            cards.append(_spec(words, index, None, None, None, wild=True))
            used.add(index)
            continue
        code = card_code(word)
        if code is not None:
            cards.append(_spec(words, index, code[0], code[1], None))
            used.add(index)
            continue
        if word in _NOT_RANKS.get(lang or "", ()):
            continue
        rank = _rank_of(words, index)
        if rank is None:
            continue
        if (
            word in WEAK_RANKS
            and word != "as"
            and not word.isdigit()
            and _one_of_a_suit(words, index)
        ):
            continue  # "je vire un pique", "een harten", "um de paus": a card of that suit
        if rank < 0 and word in CONCEPTS["meld"].get(lang or "", ()):
            continue  # "la suite de cœur" is a run, not a seven heard as "suite"
        if rank < 0 and word in _NEVER_A_RANK:
            continue  # "wat is de schoppen drie waard": "is" is no ace heard
        if word == "one" and index and words[index - 1] in SUIT_WORDS:
            continue  # "the club one": a card of that suit, not its ace
        suit, colour, taken = _suit_and_colour(words, index, used)
        if word in WEAK_RANKS and not _ace_after_article(words, index):
            said_suit = any(words[at] in SUIT_WORDS for at in taken)
            if suit is None or not said_suit:
                continue  # "een zwarte zes", "un coup": the article is no ace
        heard = False
        if rank < 0:  # a rank heard only by its sound: "for of clubs", "schoppen zeeven"
            # Both by their sound ("schoppe zeve"): a card only if a legal action has it.
            before = index - 1 in taken and words[index - 1] in SUIT_WORDS
            if suit is None:
                continue
            real_suit = any(words[at] in SUIT_WORDS for at in taken)
            if any(_a_group(words, at, lang) for at in taken if words[at] in SUIT_WORDS):
                continue  # "mijn harten neer", "la suite de cœur et…": a run, no card heard
            if real_suit and not (_suit_follows(words, index) or before):
                continue  # "zo, klaveren negen": the suit is the next rank's
            if not real_suit and len(word) < 4 and not _of_follows(words, index, lang):
                continue  # "is the pizza": two short sounds are no card ("for of hurts" is)
            # Both by their sound, or the rank only by a rhyme: a guess, sent only if legal.
            heard = not real_suit or RANK_SOUNDS.closest(word) is None
            rank = -rank
        used.add(index)
        used.update(taken)
        cards.append(_spec(words, min({index, *taken}), rank, suit, colour, heard=heard))
    # A suit or a colour alone ("the heart", "a black one") names a card too.
    for index, word in enumerate(words):
        if index in used:
            continue
        if (
            word in SUIT_WORDS
            and not _next_is_card(words, index)
            and not _a_group(words, index, lang)
        ):
            spec = _spec(words, index, None, SUIT_WORDS[word], None)
            one_after = words[index + 1 : index + 2] == ["one"]  # "the club one"
            cards.append(replace(spec, one=one_after or _one_before(words, index)))
    target = _target_at(words, pile_at, lang)
    if not cards and target is not None:
        cards.extend(_any_card_onto(words, target, lang))
    if not cards:
        cards.extend(_card_of_a_colour(words, lang))
    cards.sort(key=lambda spec: spec.at)
    return tuple(cards)


_CARD_NOUNS = frozenset({"card", "one", "carte", "carta", "kaart", "kaartje"})
_SOME = frozenset({"a", "an", "any", "un", "une", "um", "uma", "een", "n"})


def _card_of_a_colour(words: list[str], lang: str | None) -> list[CardSpec]:
    """ "gooi de zwarte kaart weg", "the red one", "a carta preta": a card by its colour."""
    articles = (ARTICLES - {"a"} if lang not in (None, "en") else ARTICLES) | _SOME
    for index, word in enumerate(words):
        if word not in _CARD_NOUNS or index == 0:
            continue
        article, colour = _kind_at(words, index, articles)
        if article and colour and (word != "one" or words[index - 1] in COLOUR_WORDS):
            return [CardSpec(None, None, colour, index, one=True)]
    return []


def _kind_at(words: list[str], index: int, articles: frozenset[str]) -> tuple[bool, str | None]:
    """Of the card noun at ``index``: whether an article leads to it ("a card", "a red
    card"), and the colour said beside it, before or after ("carte rouge")."""
    before, after = words[index - 1], words[index + 1] if index + 1 < len(words) else ""
    colour = next((COLOUR_WORDS[w] for w in (before, after) if w in COLOUR_WORDS), None)
    article = before in articles or (
        before in COLOUR_WORDS and index >= 2 and words[index - 2] in articles
    )
    return article, colour


def _target_at(words: list[str], pile_at: set[int], lang: str | None) -> int | None:
    """Where a pile a card is put on is said, in a line that takes no card: a pile after
    "on", or "on the empty pile" ("op de lege stapel")."""
    if any(concepts_of(word, lang) & {"draw", "take"} for word in words):
        return None
    targets = [index for index in pile_at if index < len(words) and _role(words, index)[0]]
    for index, word in enumerate(words):
        later = index + 1
        while later < len(words) and words[later] in ARTICLES:
            later += 1
        if word in ONTO and later < len(words) and "empty" in concepts_of(words[later], lang):
            targets.append(index)
    return min(targets, default=None)


def _any_card_onto(words: list[str], pile_at: int, lang: str | None) -> list[CardSpec]:
    """A card named only by its kind, said before the pile it goes on: "a red one on
    north", "une carte rouge sur le nord", "põe uma carta no norte", "een klaverenkaart"
    (any of them: which one is asked back)."""
    for index, word in enumerate(words[:pile_at]):
        if word.endswith("kaart") and word[:-5] in SUIT_WORDS:  # a Dutch compound
            return [CardSpec(None, SUIT_WORDS[word[:-5]], None, index, one=True)]
        if index == 0:
            continue
        if word in COLOUR_WORDS and words[index + 1] in ONTO and words[index - 1] in _SOME:
            return [CardSpec(None, None, COLOUR_WORDS[word], index, one=True)]  # "een rode op"
        if word not in _CARD_NOUNS:
            continue
        some = _SOME if lang in (None, "en") else _SOME - {"a"}  # "a carta": the card
        article, colour = _kind_at(words, index, some)
        if article and (colour is not None or word != "one"):
            return [CardSpec(None, None, colour, index, one=True)]
    return []


# Short words of every line, too common to be a rank misheard by its sound.
_NEVER_A_RANK = frozenset({"is", "es", "et", "en", "in", "on", "op", "of", "it", "at", "het"})
_GROUP_WORDS = frozenset(
    {"my", "all", "those", "these", "mes", "tous", "toutes", "ces", "meus", "minhas", "todos",
     "todas", "mijn", "alle", "die", "mine"}
)  # fmt: skip


def _a_group(words: list[str], index: int, lang: str | None) -> bool:
    """ "lay down my hearts", "la suite de cœur", "a sequência de copas": a suit naming
    several cards (a run), not one card."""
    before = [word for word in words[max(0, index - 2) : index] if word not in CONNECTORS]
    # The speaker's own word for a run: "set de pique" is a seven misheard, in French.
    return bool(before) and (
        before[-1] in _GROUP_WORDS or before[-1] in CONCEPTS["meld"].get(lang or "en", ())
    )


_CARD_OR_PILE = frozenset(
    {*SUIT_WORDS, *COLOUR_WORDS, *JOKER_WORDS, *WILD_WORDS, *VERTICAL, *HORIZONTAL,
     *CORNER_WORDS}
)  # fmt: skip
_ACTION_CONCEPTS = frozenset({"draw", "take", "discard", "go_out", "end_turn", "move", "play"})


def _ace_after_article(words: list[str], index: int) -> bool:
    """ "l'as", "o ás": "as" after an article is the ace, not English "as" or "as" (the)."""
    if index >= 2 and words[index - 1] == "l" and words[index - 2] in _SUBJECTS:
        return False  # "c'est toi qui l'as faite", "tu l'as vu": a verb
    return words[index] == "as" and index > 0 and words[index - 1] in _ACE_ARTICLES


_SUBJECTS = frozenset({"tu", "qui", "je", "j", "il", "elle", "on", "que", "qu"})


_ACE_ARTICLES = frozenset({"l", "o", "um", "un", "les", "des", "d", "os", "cet"})


def _suit_follows(words: list[str], index: int) -> bool:
    """A connector and then a suit word (or its sound) right after ``index``."""
    if index + 2 >= len(words) or words[index + 1] not in CONNECTORS:
        return False
    after = words[index + 2]
    return after in SUIT_WORDS or (
        len(after) >= 4 and _unknown(after) and SUIT_SOUNDS.closest(after) is not None
    )


def _one_of_a_suit(words: list[str], index: int) -> bool:
    """ "un pique", "een harten", "um de paus", "one of clubs": one card of the suit (the ace
    is called by its name), the word an article or "one"."""
    after = words[index + 1 : index + 3]
    return bool(after) and (
        after[0] in SUIT_WORDS or (len(after) == 2 and after[0] in _OF and after[1] in SUIT_WORDS)
    )


_OF = frozenset({"of", "de", "van"})


def _one_before(words: list[str], index: int) -> bool:
    """The suit at ``index`` said as one card of it: "um de paus", "een harten"."""
    before = index - 1
    if before >= 1 and words[before] in _OF:
        before -= 1
    return before >= 0 and words[before] in WEAK_RANKS and words[before] not in ("as", "1")


def _of_follows(words: list[str], index: int, lang: str | None) -> bool:
    """A card's own "of" right after the word: "the for of hurts", "le sis de cœur" (not
    Dutch "de", the article: "doe de klaver negen weg")."""
    of = {"of", "van"} | ({"de"} if lang in ("fr", "pt") else set())
    return index + 1 < len(words) and words[index + 1] in of


def _next_is_card(words: list[str], index: int) -> bool:
    return index + 1 < len(words) and words[index + 1] in RANK_WORDS


def _is_question_of_wild(words: list[str]) -> bool:
    """ "what's wild?" asks about the round; "discard the wild" names a card."""
    return bool({"what", "whats", "which", "quel", "quelle", "qual", "wat", "welke"} & set(words))


def _rank_of(words: list[str], index: int) -> int | None:
    """The rank the word names; negative when only its sound says so (a suit must follow)."""
    word = words[index]
    if word in RANK_WORDS:
        return RANK_WORDS[word]
    if word in WEAK_RANKS:
        return WEAK_RANKS[word]
    if word.isdigit():
        value = int(word)
        if 1 <= value <= 13 and not (index + 1 < len(words) and words[index + 1] == "cards"):
            return value
        return None
    if word in CONNECTORS or word in ONTO or word in FROM or word in _CARD_OR_PILE:
        return None
    if concepts_of(word) & _ACTION_CONCEPTS:
        return None  # any other word may be a slip here ("for of clubs"): a suit must follow
    heard = RANK_SOUNDS.closest(word) if len(word) >= 2 else None
    if heard is None and _suit_follows(words, index):
        heard = typed_face(word)  # "kign of hearts"
    if heard is None and len(word) >= 4 and _suit_word_follows(words, index):
        heard = RANK_SOUNDS.rhyme(word)  # "heaven of spades": a rank's rhyme, a suit after
    return -heard if heard else None


def _suit_word_follows(words: list[str], index: int) -> bool:
    """A connector and then a suit word itself (not its sound) right after ``index``."""
    return (
        index + 2 < len(words) and words[index + 1] in CONNECTORS and words[index + 2] in SUIT_WORDS
    )


def _suit_and_colour(
    words: list[str], index: int, used: set[int]
) -> tuple[str | None, str | None, set[int]]:
    """The suit named just after (connectors between) or just before, and a colour beside."""
    suit: str | None = None
    colour: str | None = None
    taken: set[int] = set()
    after = index + 1
    while after < len(words) and (  # "le six noir de pique": a colour may come between
        words[after] in CONNECTORS or (words[after] in COLOUR_WORDS and after not in used)
    ):
        after += 1
    if after < len(words) and after not in used:
        shortest = 3 if after > index + 1 else 4  # "cette de pic": after "de", a suit is wanted
        found = SUIT_WORDS.get(words[after]) or (
            SUIT_SOUNDS.closest(words[after])
            if len(words[after]) >= shortest and _unknown(words[after])
            else None
        )
        if found is not None:
            suit = found
            taken.add(after)
    if suit is None and index > 0 and index - 1 not in used:
        before = words[index - 1]  # Dutch says the suit first: "harten zeven"
        found = SUIT_WORDS.get(before) or (
            SUIT_SOUNDS.closest(before)
            if len(before) >= 5 and _unknown(before) and before not in ARTICLES
            else None
        )  # "cette dame": an article, not "ster" misheard
        if found is not None:
            suit = found
            taken.add(index - 1)
    nearby = (index - 1, index + 1, *(at + 1 for at in taken), index - 2)
    for near in nearby:  # "o seis de espadas preto": after the suit too
        if 0 <= near < len(words) and words[near] in COLOUR_WORDS and near not in used:
            colour = COLOUR_WORDS[words[near]]
            taken.add(near)
            break
    return suit, colour, taken


def _spec(
    words: list[str],
    index: int,
    rank: int | None,
    suit: str | None,
    colour: str | None,
    *,
    joker: bool = False,
    wild: bool = False,
    heard: bool = False,
) -> CardSpec:
    onto, _ = _role(words, index)
    return CardSpec(rank, suit, colour, index, onto=onto, joker=joker, wild=wild, heard=heard)
