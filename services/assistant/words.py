"""The words the assistant knows, in English, French, Portuguese and Dutch.

Text is compared after ``normalize``: lower case, no accents, no punctuation, so "Cœur",
"coeur" and "CŒUR!" are one word. A spoken transcript and a typed line are read alike.
Every language's words are always known (a French phone may say "seven of hearts"): the
sets barely clash, and the few words that do ("est", "as", "pas") are read by context.

Verbs and question words are listed in one form each and compared by their Snowball stem
in their own language, so "pioché", "piochons" and "piocher" are one word, as are
"acabei" and "acabar".
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Mapping
from functools import lru_cache
from typing import Protocol

import snowballstemmer

LANGUAGES = ("en", "fr", "pt", "nl")
_ALGORITHMS = {"en": "english", "fr": "french", "pt": "portuguese", "nl": "dutch"}
_THREAD = threading.local()


class _Stemmer(Protocol):
    def stemWord(self, word: str) -> str: ...  # noqa: N802 (Snowball's name)


def _stemmer(lang: str) -> _Stemmer:
    """This thread's Snowball stemmer for ``lang``.

    A stemmer keeps the word it works on in itself: two threads sharing one (the service
    reading a line while the likeness model loads) stem each other's letters, or crash.
    """
    stemmers: dict[str, _Stemmer] | None = getattr(_THREAD, "stemmers", None)
    if stemmers is None:
        stemmers = _THREAD.stemmers = {
            code: snowballstemmer.stemmer(name) for code, name in _ALGORITHMS.items()
        }
    return stemmers[lang]


RANK_WORDS: dict[str, int] = {
    # English
    "ace": 1, "aces": 1, "two": 2, "twos": 2, "three": 3, "threes": 3, "four": 4, "fours": 4,
    "five": 5, "fives": 5, "six": 6, "sixes": 6, "seven": 7, "sevens": 7, "eight": 8,
    "eights": 8, "nine": 9, "nines": 9, "ten": 10, "tens": 10, "eleven": 11, "twelve": 12,
    "thirteen": 13, "jack": 11, "jacks": 11, "knave": 11, "queen": 12, "queens": 12,
    "king": 13, "kings": 13, "deuce": 2, "trey": 3,
    # French
    "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "sept": 7, "huit": 8, "neuf": 9,
    "dix": 10, "onze": 11, "douze": 12, "treize": 13, "valet": 11, "valets": 11,
    "dame": 12, "dames": 12, "reine": 12, "roi": 13, "rois": 13,
    # Portuguese
    "dois": 2, "duas": 2, "tres": 3, "quatro": 4, "cinco": 5, "seis": 6, "sete": 7,
    "oito": 8, "nove": 9, "dez": 10, "doze": 12, "treze": 13, "valete": 11,
    "dama": 12, "rainha": 12, "rei": 13, "reis": 13,
    # Dutch
    "aas": 1, "azen": 1, "twee": 2, "drie": 3, "vier": 4, "vijf": 5, "zes": 6, "zeven": 7,
    "acht": 8, "negen": 9, "tien": 10, "elf": 11, "twaalf": 12, "dertien": 13, "boer": 11,
    "vrouw": 12, "koningin": 12, "heer": 13, "koning": 13, "koningen": 13,
    # Plurals ("one of the nines")
    "doises": 2, "treses": 3, "quatros": 4, "cincos": 5, "seises": 6, "setes": 7, "oitos": 8,
    "noves": 9, "dezes": 10, "valetes": 11, "damas": 12, "rainhas": 12, "ases": 1,
    "tweeen": 2, "drieen": 3, "vieren": 4, "vijven": 5, "zessen": 6, "zevens": 7, "achten": 8,
    "negens": 9, "tienen": 10, "boeren": 11, "vrouwen": 12, "heren": 13,
}  # fmt: skip
# Words that are ranks in one language and something else in another: a rank only when a
# suit or a colour is named right beside them ("as" is English's "as", "un" an article).
WEAK_RANKS: dict[str, int] = {"as": 1, "un": 1, "une": 1, "een": 1, "one": 1, "um": 1, "1": 1}
# Joining words between a rank and its suit ("seven of hearts", "sept de coeur").
CONNECTORS = frozenset({"of", "de", "du", "des", "d", "van", "di", "the"})

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
# Colours: "the black six on the red seven" (stars are neither).
COLOUR_WORDS: dict[str, str] = {
    "red": "R", "reds": "R", "rouge": "R", "rouges": "R", "vermelho": "R", "vermelha": "R",
    "vermelhos": "R", "vermelhas": "R", "rood": "R", "rode": "R",
    "black": "B", "blacks": "B", "noir": "B", "noire": "B", "noirs": "B", "noires": "B",
    "preto": "B", "preta": "B", "pretos": "B", "pretas": "B", "negro": "B", "negra": "B",
    "zwart": "B", "zwarte": "B",
}  # fmt: skip
SUIT_COLOUR = {"H": "R", "D": "R", "C": "B", "S": "B"}
JOKER_WORDS = frozenset({"joker", "jokers", "coringa", "coringas", "jokerkaart", "jokerkaarten"})
# Portuguese players call any wild card a "curinga".
WILD_WORDS = frozenset(
    {
        "wild",
        "wilds",
        "wildcard",
        "wildcards",
        "wildkaart",  # Dutch compounds
        "wildkaarten",
        "sauvage",
        "sauvages",
        "folle",  # "carte folle", as Quebec says it
        "folles",
        "troef",
        "troeven",
        "curinga",
        "curingas",
        "wilde",
    }
)

# The cross of Kings in the Corner: a side, or a corner as two words or one.
VERTICAL = {"north": "N", "nord": "N", "norte": "N", "noord": "N", "noorden": "N",
            "south": "S", "sud": "S", "sul": "S", "zuid": "S", "zuiden": "S"}  # fmt: skip
HORIZONTAL = {"east": "E", "est": "E", "leste": "E", "oost": "E", "oosten": "E",
              "west": "W", "ouest": "W", "oeste": "W", "westen": "W"}  # fmt: skip
CORNER_WORDS = {
    "northeast": "NE", "northwest": "NW", "southeast": "SE", "southwest": "SW",
    "nordeste": "NE", "noroeste": "NW", "sudeste": "SE", "sudoeste": "SW",
    "noordoost": "NE", "noordwest": "NW", "zuidoost": "SE", "zuidwest": "SW",
}  # fmt: skip
# The cross as it lies on the screen: "top right", "en haut à droite", "rechtsboven".
SCREEN_VERTICAL = {"top": "N", "upper": "N", "haut": "N", "cima": "N", "boven": "N", "embaixo": "S",
                   "bottom": "S", "lower": "S", "bas": "S", "baixo": "S", "onder": "S"}  # fmt: skip
SCREEN_HORIZONTAL = {"right": "E", "droite": "E", "direita": "E", "rechts": "E",
                     "rechter": "E", "left": "W", "gauche": "W", "esquerda": "W",
                     "links": "W", "linker": "W"}  # fmt: skip
PILE_CODES = frozenset({"N", "E", "S", "W", "NE", "SE", "SW", "NW"})
# Piles typed as their initials in the speaker's language ("sur SO", "no L", "op ZW").
PILE_LETTERS: dict[str, dict[str, str]] = {
    "fr": {"O": "W", "NO": "NW", "SO": "SW"},
    "pt": {"L": "E", "O": "W", "NO": "NW", "SO": "SW"},
    "nl": {"Z": "S", "O": "E", "NO": "NE", "ZO": "SE", "ZW": "SW"},
}
# Chat shorthand, as typed quickly on a phone, by language: the words it stands for.
SHORTHAND: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {"u": ("you",), "ur": ("your",), "r": ("are",), "hv": ("have",),
           "rn": ("right", "now"), "im": ("i", "am"), "whos": ("who", "is"),
           "wats": ("what", "is"), "b4": ("before",), "pls": ("please",),
           "plz": ("please",), "thx": ("thanks",), "nxt": ("next",), "crd": ("card",),
           "crds": ("cards",)},
    "fr": {"ki": ("qui",), "koi": ("quoi",), "cb": ("combien",), "cmb": ("combien",),
           "mtn": ("maintenant",), "g": ("j", "ai"), "jpeux": ("je", "peux"),
           "jpe": ("je", "peux"), "jsuis": ("je", "suis"), "jsais": ("je", "sais"),
           "chui": ("je", "suis"), "pk": ("pourquoi",), "pq": ("pourquoi",),
           "qd": ("quand",), "ds": ("dans",), "tt": ("tout",), "bcp": ("beaucoup",),
           "jpioche": ("je", "pioche"), "jjoue": ("je", "joue"), "jmets": ("je", "mets")},
    "pt": {"oq": ("o", "que"), "q": ("que",), "qts": ("quantos",), "qnts": ("quantos",),
           "qtas": ("quantas",), "qntas": ("quantas",), "vc": ("voce",), "vcs": ("voces",),
           "eh": ("e",), "n": ("nao",), "tb": ("tambem",), "tbm": ("tambem",),
           "pq": ("porque",), "cmg": ("comigo",), "td": ("tudo",), "hj": ("hoje",),
           "blz": ("beleza",), "mt": ("muito",)},
    "nl": {"hvl": ("hoeveel",), "idd": ("inderdaad",), "wsl": ("waarschijnlijk",),
           "ff": ("even",), "wrm": ("waarom",), "w8": ("wacht",), "mss": ("misschien",),
           "nie": ("niet",), "ni": ("niet",), "kga": ("ik", "ga"), "kheb": ("ik", "heb"),
           "kzal": ("ik", "zal"), "tis": ("het", "is")},
}  # fmt: skip
# After these, French "est" is "is" ("c'est", "qu'est-ce", "où est"), not east.
IS_AFTER = frozenset(
    {"c", "ce", "ca", "il", "elle", "qui", "qu", "quel", "quelle", "ou", "tour", "quoi",
     "combien", "comment", "quand", "n", "ne", "rien", "tout", "carte", "jeu", "manche"}
)  # fmt: skip
# Before these, "est" is a verb too ("est-ce", "est-il").
IS_BEFORE = frozenset({"ce", "il", "elle", "on", "a", "au", "mon", "ma", "le", "la", "quoi"})
# What a pile "est" (is): "le nord est vide ?" is north, not north-east.
IS_STATES = frozenset(
    {"vide", "libre", "plein", "pleine", "occupe", "occupee", "pris", "prise", "bloque",
     "encore", "toujours", "deja", "complet", "bon", "ok", "rempli", "dispo", "disponible"}
)  # fmt: skip
# Where a card goes (the target follows) and where a pile comes from.
ONTO = frozenset(
    {"on", "onto", "upon", "to", "over", "sur", "au", "aux", "vers", "no", "na", "em", "para",
     "sobre", "op", "naar", "bij", "in", "into", "dans", "ao", "nos", "nas", "num", "numa",
     "pro", "pra", "pros", "pras", "prum", "pruma"}
)  # fmt: skip
FROM = frozenset({"from", "de", "du", "des", "da", "do", "van", "uit", "off"})

# Concepts, each listed in one form per language and compared by stem in that language.
# A word may carry several concepts ("discard" is a verb and a pile).
CONCEPTS: dict[str, dict[str, tuple[str, ...]]] = {
    "draw": {
        "en": ("draw", "drew", "drawn", "pick", "hit"),  # "hit me": one more card
        "fr": ("piocher", "pioche", "tirer", "piger", "pige"),  # "je pige": Quebec
        "pt": ("comprar", "compro", "tirar", "puxar", "pescar"),
        "nl": ("trekken", "trek", "getrokken", "trok"),
    },
    "take": {
        "en": ("take", "took", "taken", "grab", "get", "have", "want", "give", "gimme"),
        "fr": ("prendre", "prends", "pris", "ramasser", "ramasse", "recuperer", "recupere", "veux",
               "donne", "filer", "file", "envie"),
        "pt": ("pegar", "pego", "peguei", "pega", "apanhar", "apanho", "levar", "levo", "quero",
               "fico", "buscar", "busco"),
        "nl": ("pakken", "pak", "nemen", "neem", "genomen", "geef", "wil"),
    },
    "discard": {
        "en": ("discard", "throw", "toss", "dump", "ditch", "rid", "bin", "chuck", "lose",
               "thrown", "threw", "discarded"),
        "fr": ("defausser", "defausse", "jeter", "jette", "ecarter", "balancer", "virer",
               "lacher", "larguer", "debarrasser", "debarrasse", "degage", "separe",
               "separer", "defais", "defaire"),
        "pt": ("descartar", "descarto", "descarte", "largar", "fora", "livrar", "livro", "livra"),
        "nl": ("afleggen", "weggooien", "gooien", "gooi", "afgooien", "dumpen", "af", "weg",
               "lozen", "loos", "weggegooid", "gegooid", "afgelegd", "eruit"),
    },
    "go_out": {
        "en": ("out",),
        "fr": ("sortir", "sors", "sorti"),
        "pt": ("bater", "bato", "bati", "sair", "saio", "fechar"),
        "nl": ("uitgaan", "uit", "uitkomen", "uitgaat"),
    },
    "end_turn": {
        "en": ("end", "done", "pass", "finish", "stop", "nothing", "skip", "enough"),
        "fr": ("finir", "fini", "terminer", "termine", "passer", "passe", "fin", "rien",
               "arreter", "arrete", "suffit"),
        "pt": ("acabar", "acabei", "terminar", "passar", "passo", "pronto", "fim", "nada",
               "encerrar", "encerro", "parar", "paro", "chega",
               "contigo"),
        "nl": ("klaar", "pas", "passen", "gepast", "einde", "stoppen", "eindigen", "eindigt",
               "niks", "niets",
               "beeindigen", "beeindigd", "geeindigd", "afgelopen", "voorbij", "genoeg",
               "afsluiten"),
    },
    "move": {
        "en": ("move", "shift", "slide", "transfer"),
        "fr": ("deplacer", "deplace", "bouger", "transferer"),
        "pt": ("mover", "move", "mudar", "transferir", "arrastar", "mexer", "mexo"),
        "nl": ("verplaatsen", "verschuiven", "schuiven", "verleggen"),
    },
    "play": {
        "en": ("play", "put", "place", "lay", "drop", "stick", "go", "pop", "slap", "add"),
        "fr": ("jouer", "joue", "poser", "pose", "mettre", "mets", "placer", "va", "ajouter",
               "rejouer", "rejoue"),
        "pt": ("jogar", "jogo", "colocar", "coloco", "por", "ponho", "poe", "ponha", "botar",
               "meter", "vai", "mandar", "baixar", "baixo"),
        "nl": ("spelen", "speel", "speelt", "leggen", "leg", "zetten", "zet", "plaatsen", "gaat",
               "neerleggen", "opleggen"),
    },
    "card": {
        "en": ("card", "holding"), "fr": ("carte",), "pt": ("carta", "cartinha"),
        "nl": ("kaart", "kaarten", "kaartje"),
    },
    "stock": {
        "en": ("stock", "deck", "pile", "draw", "stack", "blind", "pack"),
        "fr": ("pioche", "talon", "paquet", "pile"),
        "pt": ("monte", "baralho", "pilha", "mesa"),
        "nl": ("stapel", "pot", "trekstapel", "stock"),
    },
    "discard_pile": {
        "en": ("discard", "discards", "throwaway"),
        "fr": ("defausse",),
        "pt": ("descarte", "descartes", "lixo"),
        "nl": ("aflegstapel", "weggooistapel", "afleg"),
    },
    "pile": {
        "en": ("pile", "stack", "column"),
        "fr": ("pile", "tas", "colonne"),
        "pt": ("pilha", "monte", "coluna"),
        "nl": ("stapel", "rij", "kolom"),
    },
    "corner": {"en": ("corner",), "fr": ("coin",), "pt": ("canto", "cantinho"),
               "nl": ("hoek", "hoekje")},
    "side": {
        "en": ("side", "spot", "space", "place", "gap", "hole"),
        "fr": ("cote", "place", "emplacement", "trou", "case"),
        "pt": ("lado", "lugar", "espaco", "buraco", "vaga"),
        "nl": ("kant", "plek", "plaats", "gat", "zijkant", "vak", "vakje", "zijstapel",
               "zijstapels"),
    },
    "empty": {"en": ("empty", "free", "opens", "freed"), "fr": ("vide", "libre", "libere"),
              "pt": ("vazio", "vazia", "livre", "abrir", "abre"),
              "nl": ("leeg", "lege", "vrij", "vrije", "vrijkomt", "vrijkomen")},
    "who": {"en": ("who", "whose", "whom"), "fr": ("qui",), "pt": ("quem",),
            "nl": ("wie", "wiens")},
    "what": {
        "en": ("what", "which", "whats"),
        "fr": ("quoi", "que", "quel", "quelle", "quels", "quelles", "qu", "lequel", "laquelle",
               "lesquels", "lesquelles"),
        "pt": ("que", "qual", "quais", "oque"),
        "nl": ("wat", "welke", "welk"),
    },
    "how_many": {
        "en": ("many", "much", "big", "size", "lots", "number"),
        "fr": ("combien", "beaucoup", "nombre"),
        "pt": ("quantos", "quantas", "quanto", "quanta", "muita", "muitas", "muito", "muitos",
               "numero"),
        "nl": ("hoeveel", "veel", "aantal"),
    },
    "where": {"en": ("where",), "fr": ("ou",), "pt": ("onde",),
              "nl": ("waar", "waarheen", "waarop")},
    "fewest": {"en": ("fewest", "least", "lowest", "smallest"), "fr": ("moins",),
               "pt": ("menos",), "nl": ("minste", "minst", "laagste")},
    "when": {"en": ("when",), "fr": ("quand",), "pt": ("quando",), "nl": ("wanneer",)},
    "how": {"en": ("how",), "fr": ("comment",), "pt": ("como",), "nl": ("hoe",)},
    "can": {
        "en": ("can", "could", "may", "allowed", "able", "legal"),
        "fr": ("peux", "puis", "peut", "pouvoir", "pourrais", "permis", "droit", "autorise"),
        "pt": ("posso", "pode", "podes", "poder", "permitido", "vale", "consigo", "consegue"),
        "nl": ("kan", "kun", "mag", "mogen", "kunnen", "toegestaan"),
    },
    "should": {
        "en": ("should", "ought", "would", "suggest", "recommend", "supposed"),
        "fr": ("dois", "devrais", "faut", "conseilles", "ferais", "ferait"),
        "pt": ("devo", "deveria", "faria", "aconselhas"),
        "nl": ("moet", "zou", "zal", "raad"),
    },
    "hint": {
        "en": ("hint", "hints", "suggestion", "advice", "advise", "best", "tip", "clue", "idea",
               "recommendation", "smart", "clever", "smartest"),
        "fr": ("indice", "conseil", "suggestion", "meilleur", "idee", "astuce", "aide-moi", "avis",
               "propose", "proposer", "suggere", "conseille", "recommande", "malin", "astucieux"),
        "pt": ("dica", "sugestao", "conselho", "melhor", "ideia", "palpite", "sugere", "sugerir",
               "sugira", "recomenda", "recomendas", "esperta", "esperto", "inteligente"),
        "nl": ("hint", "tip", "advies", "beste", "suggestie", "idee", "voorstel", "voorstellen",
               "aanraden", "aanrader", "slimme", "slimste", "slim"),
    },
    "help": {
        "en": ("help", "commands", "command", "instructions"),
        "fr": ("aide", "commandes", "aider"),  # not "commande": "qui a commandé ?" (ordered)
        "pt": ("ajuda", "ajudar", "socorro", "comandos"),  # "comando" stems to "com", as "como"
        "nl": ("hulp", "help", "commando", "commandos", "helpen"),
    },
    "turn": {"en": ("turn", "go", "next", "waiting"), "fr": ("tour", "suivant", "attend"),
             "pt": ("vez", "turno", "proximo", "espera"),
             "nl": ("beurt", "volgende", "wachten")},
    "show": {"en": ("show", "tell", "list", "see", "remind", "read"),
             "fr": ("montre", "dis", "voir", "affiche", "rappelle", "liste", "lister", "lis",
                    "lire"),
             "pt": ("mostra", "diz", "ver", "mostrar", "lembra", "lista", "listar", "leia",
                    "ler"),
             "nl": ("toon", "laat", "zien", "zeg", "herinner", "noem", "opnoemen", "lees",
                    "voorlezen")},
    # The assistant itself: "how does this assistant work?"
    "assistant": {"en": ("assistant",), "fr": ("assistant",), "pt": ("assistente",),
                  "nl": ("assistent",)},
    "works": {"en": ("work", "works", "counted", "calculated", "scored", "happens", "happen",
                     "added", "totalled", "tallied", "marked",
                     "scoring"),
              "fr": ("marche", "marchent", "fonctionne", "fonctionnent", "compte", "calcule",
                     "passe", "marque", "marquer"),
              "pt": ("funciona", "conta", "contam", "calcula", "contar", "acontece", "marca",
                     "marcar"),
              "nl": ("werkt", "telt", "geteld", "berekend", "tellen", "telling", "gebeurt",
                     "scoor", "scoren")},
    "options": {"en": ("options", "choices", "possibilities", "moves"),
                "fr": ("options", "choix", "possibilites"),
                "pt": ("opcoes", "escolhas", "possibilidades"),
                "nl": ("opties", "keuzes", "mogelijkheden")},
    "say": {"en": ("say", "type", "talk", "speak", "ask"),
            "fr": ("dire", "ecrire", "parle", "parler", "demander"),
            "pt": ("dizer", "escrever", "falo", "falar", "fala", "pedir"),
            "nl": ("zeggen", "typen", "praat", "praten", "spreek", "spreken", "vragen")},
    # "a new card, please", "une nouvelle carte": the next one off the stock
    "new": {"en": ("new", "fresh", "another"), "fr": ("nouvelle", "nouveau", "autre"),
            "pt": ("nova", "novo", "outra"), "nl": ("nieuwe", "nieuw", "andere")},
    "score": {
        "en": ("score", "scores", "points", "point", "total", "standings", "winning", "win",
               "leading", "lead", "ahead", "losing", "scoreboard", "tally"),
        "fr": ("score", "points", "point", "total", "classement", "gagne", "gagner", "mene",
               "perd", "devant", "resultat", "resultats"),
        "pt": ("placar", "pontos", "ponto", "pontuacao", "total", "ganhando", "ganhar",
               "vencendo", "frente", "liderando", "perdendo", "resultado", "contagem"),
        "nl": ("score", "punten", "punt", "stand", "totaal", "wint", "winnen",
               "leidt", "verliest", "geteld", "telling", "bovenaan", "uitslag", "tussenstand"),
    },
    # Who is ahead: also a "score" question ("am I winning?" asks for the leader).
    "lead": {
        "en": ("winning", "win", "leading", "lead", "ahead", "front", "beating"),
        "fr": ("gagne", "gagner", "gagnant", "mene", "devant", "premier", "premiere",
               "bat", "battre"),
        "pt": ("ganhando", "ganhar", "vencendo", "frente", "liderando", "lider", "ganha",
               "primeiro", "primeira", "lideranca"),
        "nl": ("wint", "winnen", "leidt", "bovenaan", "voorop", "winnaar", "eerste", "leiding",
               "voorsprong", "verslaat", "verslaan"),
    },
    "every": {"en": ("every", "always"), "fr": ("chaque", "toujours"),
              "pt": ("toda", "todo", "sempre"), "nl": ("elke", "iedere", "altijd")},
    "someone": {"en": ("someone", "somebody", "anyone", "anybody"), "fr": ("quelqu",),
                "pt": ("alguem",), "nl": ("iemand",)},
    "after": {"en": ("after", "afterwards"), "fr": ("apres",), "pt": ("depois",),
              "nl": ("nadat", "daarna")},
    "value": {
        "en": ("worth", "value", "cost", "costs", "count", "penalty", "penalties", "lose"),
        "fr": ("vaut", "valeur", "valent", "coute", "compte", "penalite", "perds", "perd"),
        "pt": ("vale", "valem", "valor", "custa", "conta", "penalidade", "perco", "perde"),
        "nl": ("waard", "telt", "kost", "opleveren", "strafpunten", "straf", "verlies"),
        # not "waarde": its stem is "waar"
    },
    "round": {"en": ("round", "hand", "game"), "fr": ("manche", "partie", "tour"),
              "pt": ("rodada", "ronda", "partida"),
              "nl": ("ronde", "spel", "potje")},
    "hand": {"en": ("hand",), "fr": ("main", "jeu"), "pt": ("mao",), "nl": ("hand",)},
    "have": {
        "en": ("have", "hold", "got", "has", "holding", "left"),
        "fr": ("ai", "as", "a", "tiens", "reste", "restent"),
        "pt": ("tenho", "tem", "tens", "sobram", "restam", "sobra", "resta", "ficam"),
        "nl": ("heb", "heeft", "hebt", "houd", "over", "zijn", "liggen", "had", "hadden"),
    },
    "left": {
        "en": ("left", "remaining", "remain", "still"),
        "fr": ("reste", "restent", "restant"),
        "pt": ("sobram", "restam", "sobra", "resta", "ficam", "ainda"),
        "nl": ("over", "resterend", "resten", "nog"),
    },
    "me": {
        "en": ("i", "me", "my", "mine", "im", "ive"),
        "fr": ("je", "j", "moi", "mes", "ma", "mon"),
        "pt": ("eu", "minhas", "minha", "meu", "meus", "mim", "tenho", "posso", "devo", "sou",
               "estou", "consigo"),
        "nl": ("ik", "mijn", "me", "mij"),
    },
    "you": {"en": ("you", "your"), "fr": ("tu", "toi", "vous"), "pt": ("voce", "tu"),
            "nl": ("jij", "je", "jou", "u", "jouw")},
    "everyone": {
        "en": ("everyone", "everybody", "each", "all", "others", "players"),
        "fr": ("chacun", "tous", "tout", "autres", "joueurs"),
        "pt": ("cada", "todos", "outros", "jogadores"),
        "nl": ("iedereen", "elk", "ieder", "alle", "anderen", "spelers"),
    },
    "mean": {
        "en": ("mean", "means", "meaning", "explain", "rule", "rules"),
        "fr": ("signifie", "dire", "explique", "regle", "regles"),  # "veut dire": idioms.py
        "pt": ("significa", "dizer", "explica", "regra", "regras"),
        "nl": ("betekent", "betekenis", "uitleg", "regel", "regels"),
    },
    "meld": {
        "en": ("run", "runs", "book", "books", "meld", "melds", "set", "sets", "sequence",
               "combination", "combinations", "combo", "combos"),
        "fr": ("suite", "suites", "famille", "familles", "combinaison", "brelan", "sequence"),
        "pt": ("sequencia", "trinca", "trincas", "grupo", "grupos", "combinacao", "combinacoes",
               "seguidas", "sequencias"),
        "nl": ("reeks", "reeksen", "serie", "set", "combinatie", "straat"),
    },
    "last": {"en": ("last", "final"), "fr": ("dernier", "derniere"),
             "pt": ("ultimo", "ultima"), "nl": ("laatste",)},
    "top": {"en": ("top", "showing", "up"), "fr": ("dessus", "visible", "haut"),
            "pt": ("topo", "cima", "visivel"), "nl": ("bovenop", "bovenste", "boven")},
    "start": {"en": ("start", "begin", "open"), "fr": ("commencer", "demarrer", "ouvrir"),
              "pt": ("comecar", "iniciar", "abrir"), "nl": ("beginnen", "starten", "openen")},
    "another": {"en": ("another", "other"), "fr": ("autre",), "pt": ("outra", "outro"),
                "nl": ("andere", "ander")},
    # Kings in the Corner's building rule: colours alternate ("faut alterner les couleurs ?").
    "build": {"en": ("alternate", "alternating", "colour", "colours", "color", "colors",
                     "stacking", "building", "build"),
              "fr": ("alterner", "alterne", "couleurs", "empiler", "empile", "construire",
                     "construit"),
              "pt": ("alternar", "alterna", "alternando", "cores", "empilhar", "empilha", "montar",
                     "monta"),
              "nl": ("afwisselen", "afwisselend", "kleuren", "kleur", "stapelen", "aanleggen",
                     "bouwen", "bouw")},
    # Where a card fits: "which cards fit somewhere?", "welke kaarten passen ergens?"
    "fits": {"en": ("fit", "fits"), "fr": ("vont", "rentrent"),
             "pt": ("cabem", "cabe", "encaixa", "servem", "encaixam"),
             "nl": ("passen", "past")},
    # Before anything else: "do I have to draw first?" asks a rule.
    "first": {"en": ("first", "before", "beforehand", "closest", "nearest"),
              "fr": ("avant", "abord", "proche"),
              "pt": ("antes", "perto"), "nl": ("eerst", "vooraf", "voordat", "dichtst")},
    # What a thing needs: "what do I need to go out?", "il faut quoi pour sortir ?"
    "need": {"en": ("need", "needs", "required"), "fr": ("faut", "besoin", "falloir"),
             "pt": ("precisa", "preciso", "precisar", "necessario"),
             "nl": ("nodig", "hebben")},
    # "What do you understand?": a question about the assistant, answered by the help.
    "understand": {"en": ("understand", "know"),
                   "fr": ("comprends", "comprendre", "connais", "sais", "sait", "savoir"),
                   "pt": ("entende", "entender", "entendes", "sabe"),
                   "nl": ("begrijp", "begrijpen", "snap", "verstaan", "versta", "weet", "weten")},
    # The card turned face up: the discard pile's top ("la carte retournée", "ligt er open").
    "face_up": {"fr": ("retournee", "retourne", "visible"), "pt": ("virada", "virado"),
                "nl": ("open",)},
    "there": {"en": ("there", "that", "this", "it"), "fr": ("ca", "cela", "ce"),
              "pt": ("isso", "essa", "esse", "aquela"), "nl": ("die", "dat", "deze")},
}  # fmt: skip

# Words that carry nothing: a line of only these and one verb is not an action.
FILLERS = frozenset(
    {"the", "a", "an", "to", "for", "with", "and", "or", "of", "it", "is", "ok", "okay",
     "please", "now", "then", "just", "so", "well", "um", "uh", "yeah", "yes", "right",
     "alright", "le", "la", "les", "une", "des", "du", "et", "avec", "pour", "bon", "alors",
     "euh", "donc", "bah", "oui", "os", "uma", "com", "entao", "ja", "bem", "sim", "het",
     "en", "met", "voor", "nou", "dan", "maar", "even", "eh", "oke", "hop", "allez", "ben",
     "er", "ermee", "nu", "wel", "agora", "maintenant", "here", "ici", "aqui", "hier", "am",
     "are", "was", "suis", "sou", "estou", "vou", "going", "gonna", "let", "lets", "will",
     "vais", "allons", "vamos", "gaan", "want", "wanna", "plait", "svp", "stp", "por", "favor",
     "prie", "vas", "deixa", "deixe", "laisse", "laissez", "effe", "efkes",
     "auriez", "voudriez", "pourriez",  # "auriez-vous la gentillesse de…"
     "encore", "fois", "cette", "again", "weer",  # "cette fois on pioche", "encore une"
     "daarboven", "daaronder", "hierzo", "ali", "la-bas", "labas",
     "graag", "alsjeblieft", "alstublieft", "il", "te", "s", "bent", "jij", "nah", "nope",
     "nee", "non", "no", "kom", "come", "bora", "merci", "obrigado", "obrigada", "thanks",
     "dank", "bedankt", *{"erm", "hmm", "hum", "uhm", "ehm", "ll", "ve", "re", "d", "m",
     "guess", "think", "maybe", "valeu", "beleza", "tipo", "hoor", "toch", "dus", "cheers",
     "oke", "voila", "bref", "genre", "pois", "ai", "oh", "ah", "ha", "right", "more",
     "anymore", "mais", "meer", "sua", "tua", "acho", "creio", "crois", "pense", "denk",
     "geloof", "eentje", "zo", "tja", "good", "goed", "voorlopig", "train",
     "jullie", "voces", "vous", "guys", "als", "if", "celui", "celle", "ceux", "celles",
     # good, quickly: "tá bom, vou comprar", "bon je pioche vite fait", "snel even trekken"
     "bom", "bien", "vite", "fait", "quick", "quickly", "snel", "rapido", "rapidinho",
     "depressa"}}
)  # fmt: skip
# "Throw it back": a card taken from the discard pile, thrown away again.
BACK_WORDS = frozenset(
    {"back", "rejeter", "rejette", "remettre", "volta", "devolver", "terug", "again"}
)
# Tags after a line asking the table to confirm it ("…, no?", "…, né?", "…, toch?").
CONFIRMING_TAGS = frozenset(
    {"no", "non", "nao", "ne", "nee", "niet", "toch", "right", "hein", "eh", "ok", "okay",
     "yes", "oui", "sim", "ja", "correct", "juste", "certo", "klopt"}
)  # fmt: skip
# Sounds of hesitation, as a recogniser writes them ("um" is also Portuguese for "a").
HESITATION_SOUNDS = frozenset(
    {"uh", "um", "umm", "erm", "uhm", "hmm", "hum", "euh", "heu", "eh", "ehm", "ah"}
)  # fmt: skip
# Discourse words whose look-alike stems mean something ("valeu", thanks, is not "vale",
# worth): they carry no concept at all.
NOTHING_WORDS = frozenset(
    {"niet", "erm", "hmm", "hum", "uhm", "ehm", "ll", "ve", "re", "valeu", "beleza", "tipo", "hoor",
     "toch", "guess", "think", "maybe", "cheers", "merci", "obrigado", "obrigada", "thanks",
     "bedankt", "voila", "bref", "genre", "haha", "hahaha", "hehe", "hihi", "lol", "mdr",
     "kkk", "kkkk", "rsrs", "querida", "querido", "queridos", "queridas"}
)  # fmt: skip
# Words that mean something else in the speaker's own language, by language: French
# "pas" is a negation, never Dutch "ik pas"; Portuguese "tô"/"tou" is "estou", I am.
LANGUAGE_ONLY: dict[str, dict[str, frozenset[str]]] = {
    "en": {"a": frozenset(), "as": frozenset()},  # articles, not French "il a", "tu as"
    "fr": {"pas": frozenset(), "je": frozenset({"me"})},
    "pt": {
        "to": frozenset({"me"}),
        "tou": frozenset({"me"}),
        "ta": frozenset(),
        "dois": frozenset(),
        "a": frozenset(),  # the article
        "as": frozenset(),
    },
    # "hoe win je?": you, not French "je"; "eerst" (first) is not "eerste" (the leader)
    "nl": {
        "je": frozenset({"you"}),
        "eerst": frozenset({"first"}),
        "want": frozenset(),  # because, not English "want" (take): "op noord, want die is leeg"
    },
}


_NOT_A_WORD = re.compile(r"[^a-z0-9]+")
# A card written as its code ("7h", "10s", "qd"); aces are left out: "as", "ah", "ad" are words.
_CARD_CODE = re.compile(r"^(10|[2-9]|[jqk])([hdcst])$")


def plain(text: str) -> str:
    """Lower case without accents; suit symbols become suit words."""
    text = text.replace("♥", " hearts ").replace("♦", " diamonds ").replace("♡", " hearts ")
    text = text.replace("♣", " clubs ").replace("♠", " spades ").replace("★", " stars ")
    text = text.replace("œ", "oe").replace("Œ", "oe")
    lowered = unicodedata.normalize("NFKD", text.lower())
    return "".join(char for char in lowered if not unicodedata.combining(char))


def normalize(text: str) -> list[str]:
    """Lower case words without accents or punctuation; "♥" and friends become suit words."""
    return [word for word in _NOT_A_WORD.split(plain(text)) if word]


def first_names(names: Mapping[int, str], *, but: int | None = None) -> frozenset[str]:
    """The players' first names by seat, normalised ("Zoé Martin" -> "zoe"); the seat
    ``but`` left out."""
    return frozenset(
        parts[0] for seat, name in names.items() if seat != but and (parts := normalize(name))
    )


def card_code(word: str) -> tuple[int, str] | None:
    """A card written as its code ("7h", "10s", "qd"), if ``word`` is one."""
    match = _CARD_CODE.match(word)
    if match is None:
        return None
    rank_text, suit = match.groups()
    ranks = {"j": 11, "q": 12, "k": 13}
    rank = ranks[rank_text] if rank_text in ranks else int(rank_text)
    return rank, suit.upper()


@lru_cache(maxsize=8192)
def stems(word: str) -> tuple[str, ...]:
    """The word's Snowball stem in each language, in ``LANGUAGES`` order."""
    return tuple(_stemmer(lang).stemWord(word) for lang in LANGUAGES)


@lru_cache(maxsize=65536)
def stem_in(word: str, lang: str | None) -> str:
    """The word's Snowball stem in the speaker's language (as written if it is not known)."""
    return _stemmer(lang).stemWord(word) if lang in _ALGORITHMS else word


# Forms compared as written only: their stems are other words' ("wil" and "wilde").
# "scored" is how, "scores" what; "commande" (ordered) is no command.
_EXACT_ONLY = frozenset(  # "scoring" is how, "scores" what
    {
        "scoring",
        "opens",
        "moves",
        "stapelen",
        "empiler",
        "empilhar",
        "stacking",
        "parar",
        "paro",
        "montar",
        "monta",
        "chega",
        "livre",
    }
    | {"autres", "outros", "anderen", "others", "comandos"}  # the others, not "une autre carte"
    | {"wil", "scored", "commandes", "command", "commands", "commando", "commandos"}
)


def _concept_index() -> tuple[dict[str, frozenset[str]], tuple[dict[str, frozenset[str]], ...]]:
    exact: dict[str, set[str]] = {}
    by_stem: list[dict[str, set[str]]] = [{} for _ in LANGUAGES]
    for concept, per_language in CONCEPTS.items():
        for index, lang in enumerate(LANGUAGES):
            for form in per_language.get(lang, ()):
                exact.setdefault(form, set()).add(concept)
                stem = _stemmer(lang).stemWord(form)
                if len(stem) >= 3 and form not in _EXACT_ONLY:  # short stems catch too much
                    by_stem[index].setdefault(stem, set()).add(concept)
    return (
        {form: frozenset(found) for form, found in exact.items()},
        tuple({stem: frozenset(found) for stem, found in table.items()} for table in by_stem),
    )


_EXACT, _BY_STEM = _concept_index()


_FR_PERSONS = ("ons", "ent", "ez")


@lru_cache(maxsize=16384)
def concepts_of(word: str, lang: str | None = None) -> frozenset[str]:
    """Every concept ``word`` may carry: by its exact form in any language, and by its stem
    in the speaker's language and English (``lang`` None: in every language).

    Stems are compared in the speaker's language only, because a word stemmed the
    Portuguese way can meet another language's stem by chance ("place", "placar").
    """
    if word in NOTHING_WORDS:
        return frozenset()
    if lang in LANGUAGE_ONLY and word in LANGUAGE_ONLY[lang]:
        return LANGUAGE_ONLY[lang][word]
    found = set(form_concepts(word, lang))
    ending = next((end for end in _FR_PERSONS if word.endswith(end)), None)
    if lang in (None, "fr") and not found and len(word) >= 6 and ending is not None:
        # "piochons", "jouent", "jouez": the infinitive's (the stemmer keeps these forms)
        infinitive = word[: -len(ending)] + "er"  # by its French stem only ("entendez")
        found.update(_BY_STEM[LANGUAGES.index("fr")].get(_stemmer("fr").stemWord(infinitive), ()))
    if not found and lang in (None, "nl") and len(word) >= 8:
        found.update(_compound_concepts(word))  # "puntentelling", "kaartenstapel"
    if found and not found & {"can", "should"} and _conditional(word, lang):
        found.add("conditional")  # "jouerais", "jogaria": in a question, a hint asked
    return frozenset(found)


def form_concepts(word: str, lang: str | None) -> set[str]:
    found = set(_EXACT.get(word, ()))
    if len(word) >= 4:
        for code, table, stem in zip(LANGUAGES, _BY_STEM, stems(word), strict=True):
            if lang is None or code in (lang, "en"):
                found.update(table.get(stem, ()))
    return found


def _compound_concepts(word: str) -> set[str]:
    """A Dutch compound of two known words, by its parts (joined by "s" or "en" or not)."""
    for cut in range(4, len(word) - 3):
        head, tail = word[:cut], word[cut:]
        tail_found = form_concepts(tail, "nl")
        head_found = form_concepts(head, "nl") or (
            form_concepts(head[:-1], "nl") if head.endswith("s") else set()
        )
        if head_found and tail_found:
            return head_found | tail_found
    return set()


_CONDITIONAL = {"fr": ("erais", "erait", "irais", "rais", "rait"), "pt": ("aria", "eria", "iria")}


def _conditional(word: str, lang: str | None) -> bool:
    """A French or Portuguese conditional ("jouerais", "jogaria"): what one would do."""
    return any(
        len(word) >= 6 and word.endswith(_CONDITIONAL[code])
        for code in _CONDITIONAL
        if lang is None or lang == code
    )


# Dutch writes a card as one word, suit first: "ruitenvrouw", "klaverdrie", "harten7".
_COMPOUND_SUITS = tuple(sorted((w for w in SUIT_WORDS if len(w) >= 4), key=len, reverse=True))


@lru_cache(maxsize=8192)
def split_compound(word: str) -> tuple[str, str] | None:
    """A suit and a rank written as one word, if ``word`` is one."""
    for suit in _COMPOUND_SUITS:
        if word.startswith(suit) and len(word) > len(suit):
            rest = word[len(suit) :]
            if rest in RANK_WORDS or (rest.isdigit() and 1 <= int(rest) <= 13):
                return suit, rest
    return None


_CARD_AND_PILE_WORDS = frozenset(
    {*RANK_WORDS, *WEAK_RANKS, *SUIT_WORDS, *COLOUR_WORDS, *JOKER_WORDS, *WILD_WORDS,
     *VERTICAL, *HORIZONTAL, *CORNER_WORDS}
)  # fmt: skip


def is_known(word: str) -> bool:
    """Whether the assistant knows ``word`` as a card, a pile, a number or a concept."""
    return (
        word in _CARD_AND_PILE_WORDS
        or word.isdigit()
        or card_code(word) is not None
        or split_compound(word) is not None
        or bool(concepts_of(word))
    )
