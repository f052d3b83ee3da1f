"""The words the assistant knows, in English, French, Portuguese and Dutch.

Text is compared after ``normalize``: lower case, no accents, no punctuation, so "Cœur",
"coeur" and "CŒUR!" are one word. A spoken transcript and a typed line are read alike.
Every language's words are always known (a French phone may say "seven of hearts"): the
sets do not clash, and a mixed household is spared a setting.
"""

from __future__ import annotations

import re
import unicodedata

RANK_WORDS: dict[str, int] = {
    # English
    "ace": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "jack": 11, "knave": 11, "queen": 12, "king": 13,
    # French
    "as": 1, "un": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "sept": 7, "huit": 8,
    "neuf": 9, "dix": 10, "valet": 11, "dame": 12, "reine": 12, "roi": 13,
    # Portuguese
    "dois": 2, "duas": 2, "tres": 3, "quatro": 4, "cinco": 5, "seis": 6, "sete": 7,
    "oito": 8, "nove": 9, "dez": 10, "valete": 11, "dama": 12, "rainha": 12, "rei": 13,
    # Dutch
    "aas": 1, "een": 1, "twee": 2, "drie": 3, "vier": 4, "vijf": 5, "zes": 6, "zeven": 7,
    "acht": 8, "negen": 9, "tien": 10, "boer": 11, "vrouw": 12, "koningin": 12, "heer": 13,
    "koning": 13,
}  # fmt: skip
# Words that are ranks in one language and something else in another: a rank only when a
# suit is named right beside them ("a" is English's article; "as" English's "as").
WEAK_RANKS = frozenset({"as", "un", "een", "one"})
# Joining words between a rank and its suit ("seven of hearts", "sept de coeur").
CONNECTORS = frozenset({"of", "de", "du", "des", "d", "van", "di"})

SUIT_WORDS: dict[str, str] = {
    "heart": "H", "hearts": "H", "coeur": "H", "coeurs": "H", "copas": "H", "copa": "H",
    "harten": "H", "hart": "H",
    "diamond": "D", "diamonds": "D", "carreau": "D", "carreaux": "D", "ouros": "D",
    "ouro": "D", "ruiten": "D", "ruit": "D",
    "club": "C", "clubs": "C", "trefle": "C", "trefles": "C", "paus": "C", "pau": "C",
    "klaveren": "C", "klaver": "C",
    "spade": "S", "spades": "S", "pique": "S", "piques": "S", "espadas": "S", "espada": "S",
    "schoppen": "S", "schop": "S",
    "star": "T", "stars": "T", "etoile": "T", "etoiles": "T", "estrela": "T",
    "estrelas": "T", "ster": "T", "sterren": "T",
}  # fmt: skip
JOKER_WORDS = frozenset({"joker", "jokers", "coringa", "curinga", "jocker"})

# The cross of Kings in the Corner: a side, or a corner as two words or one.
VERTICAL = {"north": "N", "nord": "N", "norte": "N", "noord": "N",
            "south": "S", "sud": "S", "sul": "S", "zuid": "S"}  # fmt: skip
HORIZONTAL = {"east": "E", "est": "E", "leste": "E", "oost": "E",
              "west": "W", "ouest": "W", "oeste": "W"}  # fmt: skip
CORNER_WORDS = {
    "northeast": "NE", "northwest": "NW", "southeast": "SE", "southwest": "SW",
    "nordeste": "NE", "noroeste": "NW", "sudeste": "SE", "sudoeste": "SW",
    "noordoost": "NE", "noordwest": "NW", "zuidoost": "SE", "zuidwest": "SW",
}  # fmt: skip

# Verbs and set phrases, each a tuple of words that must appear in that order.
PHRASES: dict[str, tuple[tuple[str, ...], ...]] = {
    "draw": (
        ("draw",), ("pick",), ("pioche",), ("piocher",), ("compra",),
        ("comprar",), ("compro",), ("trek",), ("trekken",), ("pak", "kaart"),
    ),
    "end_turn": (
        ("end",), ("done",), ("pass",), ("finish",), ("fin",), ("fini",), ("termine",),
        ("passe",), ("je", "passe"), ("fim",), ("passo",), ("passar",), ("pronto",),
        ("klaar",), ("einde",), ("ik", "pas"), ("beurt", "voorbij"),
    ),
    "discard": (
        ("discard",), ("throw",), ("defausse",), ("jette",), ("jeter",), ("descarta",),
        ("descartar",), ("descarto",), ("gooi",), ("afleggen",), ("leg", "af"),
    ),
    "take_discard": (
        ("take", "discard"), ("take", "the", "discard"), ("prends", "defausse"),
        ("prendre", "defausse"), ("pega", "descarte"), ("pegar", "descarte"),
        ("pego", "descarte"), ("pak", "aflegstapel"), ("neem", "aflegstapel"),
        ("discard", "pile"), ("from", "discard"),
    ),
    "go_out": (
        ("go", "out"), ("going", "out"), ("sors",), ("sortir",), ("je", "sors"),
        ("bater",), ("bato",), ("saio",), ("sair",), ("uitgaan",), ("ga", "uit"),
    ),
    "move": (("move",), ("deplace",), ("deplacer",), ("mover",), ("verplaats",),
             ("verschuif",)),
    "ask_turn": (
        ("whose", "turn"), ("who", "plays"), ("a", "qui"), ("qui", "joue"),
        ("de", "quem"), ("quem", "joga"), ("wie", "is"), ("wie", "speelt"),
    ),
    "ask_hand": (
        ("my", "cards"), ("my", "hand"), ("mes", "cartes"), ("ma", "main"),
        ("minhas", "cartas"), ("minha", "mao"), ("mijn", "kaarten"), ("mijn", "hand"),
    ),
    "ask_moves": (
        ("what", "can", "i"), ("que", "puis", "je"), ("quoi", "jouer"), ("o", "que", "posso"),
        ("que", "posso"), ("wat", "kan", "ik"),
    ),
    "ask_help": (("help",), ("aide",), ("ajuda",), ("hulp",), ("commands",), ("commandes",)),
}  # fmt: skip

# Aces are left out: "as", "ah", "ad" and "at" are words.
_CARD_CODE = re.compile(r"^(10|[2-9]|[jqk])([hdcst])$")
_NOT_A_WORD = re.compile(r"[^a-z0-9]+")


def normalize(text: str) -> list[str]:
    """Lower case words without accents or punctuation; "♥" and friends become suit words."""
    text = text.replace("♥", " hearts ").replace("♦", " diamonds ")
    text = text.replace("♣", " clubs ").replace("♠", " spades ").replace("★", " stars ")
    text = text.replace("œ", "oe").replace("Œ", "oe")
    plain = unicodedata.normalize("NFKD", text.lower())
    plain = "".join(char for char in plain if not unicodedata.combining(char))
    return [word for word in _NOT_A_WORD.split(plain) if word]


def card_code(word: str) -> tuple[int, str] | None:
    """A card written as its code ("7h", "10s", "qd"), if ``word`` is one."""
    match = _CARD_CODE.match(word)
    if match is None:
        return None
    rank_text, suit = match.groups()
    ranks = {"j": 11, "q": 12, "k": 13}
    rank = ranks[rank_text] if rank_text in ranks else int(rank_text)
    return rank, suit.upper()
