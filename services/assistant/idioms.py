"""Idioms: turns of phrase whose meaning is not their words', and Dutch verbs split in two.

"What am I on?" asks for a score, "help me out" goes nowhere, "stel jij voor?" is
"voorstellen". ``reading`` adds what an idiom means to the line's concepts and takes away
what its words would otherwise say.
"""

from __future__ import annotations

from services.assistant.words import FILLERS, form_concepts

# Turns of phrase that mean more (or less) than their words, in every language: a phrase
# of normalised words ("*" is any one word, "^" and "$" the line's start and end), the concepts it
# adds, and those its words lose ("help me out" goes nowhere; "what am I on?" is a score).
Idiom = tuple[tuple[str, ...], frozenset[str], frozenset[str]]


def _idiom(phrase: str, add: str = "", drop: str = "") -> Idiom:
    return tuple(phrase.split()), frozenset(add.split()), frozenset(drop.split())


IDIOMS: tuple[Idiom, ...] = (
    # English
    _idiom("what am i on", "score me"),
    _idiom("stop it", "", "end_turn"),  # said to someone: "stop it, Ben"
    _idiom("out of luck", "", "go_out"),
    _idiom("out of options", "", "go_out"),
    _idiom("where there s nothing", "empty", "end_turn where"),
    _idiom("where nothing is", "empty", "end_turn where"),
    _idiom("what s * on $", "score"),
    _idiom("what is * on $", "score"),
    _idiom("how am i doing", "score me"),
    _idiom("how m i doing", "score me"),
    _idiom("where am i at", "score me"),
    _idiom("out in front", "lead score", "go_out"),
    _idiom("in front", "lead score"),
    _idiom("closest to going out", "fewest card", "go_out play"),
    _idiom("nearest to going out", "fewest card", "go_out play"),
    _idiom("help me out", "", "go_out"),
    _idiom("good move", "hint"),
    _idiom("good play", "hint"),
    _idiom("stuck with", "", "take"),
    _idiom("what do i do", "do"),
    _idiom("what shall i do", "do"),
    _idiom("what do i have to do", "do"),
    _idiom("what do i need to do", "do"),
    _idiom("what must i do", "do"),
    _idiom("what now $", "do"),
    _idiom("hit me", "draw"),  # the card-table call for one more card
    _idiom("^ and now $", "do"),
    _idiom("that s me", "end_turn"),
    _idiom("that will be all", "end_turn"),
    _idiom("what are you for", "help"),
    _idiom("out it goes", "discard", "go_out"),
    _idiom("that ll be all", "end_turn"),
    _idiom("allowed to go on", "build"),
    _idiom("go on top of a pile", "build"),
    _idiom("what goes on what", "build"),
    _idiom("where do i stand", "score me"),
    _idiom("who s on top", "lead score"),
    _idiom("who is on top", "lead score"),
    _idiom("doing best", "lead score", "hint"),
    _idiom("at the beginning", "first"),  # of the turn: when to draw
    _idiom("best score", "lead score", "hint"),
    _idiom("what s the damage", "score me"),
    _idiom("that s me out", "go_out"),
    # Laying the whole hand down is going out, in Five Crowns ("lay 'em down").
    _idiom("lay em down", "go_out", "play"),
    _idiom("lay them down", "go_out", "play"),
    _idiom("lay them all down", "go_out", "play"),
    _idiom("lay it all down", "go_out", "play"),
    _idiom("lay everything down", "go_out", "play"),
    _idiom("lay down everything", "go_out", "play"),
    _idiom("lay down my hand", "go_out", "play"),
    _idiom("lay the lot down", "go_out", "play"),
    _idiom("lay down the lot", "go_out", "play"),
    _idiom("top of the table", "lead score"),
    _idiom("first place", "lead score"),
    _idiom("card counts", "how_many card everyone", "value"),
    _idiom("card count", "how_many card", "value"),
    _idiom("stock count", "how_many stock", "value works"),
    _idiom("deck count", "how_many stock", "value works"),
    _idiom("on the board", "score"),
    _idiom("how bad", "how_many value"),
    _idiom("face up", "face_up"),
    _idiom("have to", "need"),
    _idiom("has to", "need"),
    _idiom("got to", "need"),
    _idiom("^ next $", "end_turn"),
    _idiom("take one", "card"),
    _idiom("that s it", "end_turn"),
    _idiom("is it over", "end_turn"),
    _idiom("it s over", "end_turn"),
    _idiom("turn s over", "end_turn"),
    _idiom("that s all", "end_turn"),
    _idiom("all done", "end_turn"),
    _idiom("i m through", "end_turn"),
    _idiom("turn is over", "end_turn"),
    _idiom("what do you reckon", "hint"),
    _idiom("what do you think", "hint"),
    # A thought lost, said to oneself: nothing asked of the assistant.
    _idiom("was i gonna", "aside", "what say mean me"),
    _idiom("was i going to", "aside", "what say mean me"),
    _idiom("what was i saying", "aside", "what say mean me"),
    _idiom("first time", "aside", "first lead score turn play"),  # "my first time playing"
    _idiom("face down", "stock", "face_up top"),  # "the face-down one": the stock's
    _idiom("^ mine $", "turn me"),  # "mine?": is it my turn?
    # French
    _idiom("le plus proche de sortir", "fewest card", "go_out play"),
    _idiom("arrete de", "", "end_turn"),  # "arrête de regarder mes cartes": stop doing
    _idiom("arretez de", "", "end_turn"),
    _idiom("sert a rien", "", "end_turn"),  # "il me sert à rien": useless, not "nothing more"
    # "là où y a rien": a place with nothing on it is an empty pile, not "nothing" (end turn)
    _idiom("ou y a rien", "empty", "end_turn have where"),
    _idiom("ou il y a rien", "empty", "end_turn have where"),
    _idiom("ou il n y a rien", "empty", "end_turn have where"),
    _idiom("en suis a combien", "score me"),
    _idiom("en suis ou", "score me"),
    _idiom("en est a combien", "score"),
    _idiom("en est ou", "score"),
    _idiom("c est a * $", "turn"),
    _idiom("c est a moi", "turn"),
    _idiom("c est a toi de", "turn"),
    _idiom("bon coup", "hint"),
    _idiom("veut dire", "mean"),
    _idiom("veux dire", "mean"),
    _idiom("c est bon pour moi", "end_turn"),
    _idiom("je fais quoi", "do"),
    _idiom("que faire", "do"),
    _idiom("ce que je fais", "do"),
    _idiom("fais quoi", "do"),
    _idiom("^ et maintenant $", "do"),
    _idiom("ce que je dois faire", "do"),
    _idiom("ou j en suis", "score me"),
    _idiom("qui est premier", "lead score"),
    _idiom("^ suivant $", "end_turn"),
    _idiom("en prends une", "card"),
    _idiom("se fait", "works"),
    _idiom("en penses quoi", "hint"),
    _idiom("qu en penses tu", "hint"),
    _idiom("j allais dire", "aside", "what say mean me"),
    _idiom("je disais quoi", "aside", "what say mean me"),
    _idiom("premiere fois", "aside", "first lead score turn play"),
    _idiom("face cachee", "stock", "face_up"),
    _idiom("tout de suite", "", "meld"),  # at once, not a run
    _idiom("tu sers a quoi", "help"),  # what the assistant is for
    _idiom("a quoi tu sers", "help"),
    _idiom("a quoi sers tu", "help"),
    _idiom("en tete", "lead score"),  # "la tête de Ben" is his face
    _idiom("au debut", "first"),
    _idiom("a la tete", "lead score"),
    _idiom("je pose tout", "go_out", "play"),
    _idiom("je pose mon jeu", "go_out", "play"),
    _idiom("j etale tout", "go_out", "play"),
    _idiom("j etale mon jeu", "go_out", "play"),
    # Portuguese
    _idiom("mais perto de bater", "fewest card", "go_out play"),
    _idiom("para de", "", "end_turn"),  # "para de olhar as minhas cartas"
    _idiom("pare de", "", "end_turn"),
    _idiom("^ da para", "can me"),  # "dá para fechar?": can I go out?
    _idiom("^ da pra", "can me"),
    _idiom("de baixo", "", "play"),  # below, not "baixo" (I lay down)
    _idiom("em baixo", "", "play"),
    _idiom("onde nao tem nada", "empty", "end_turn have where"),
    _idiom("onde nao ha nada", "empty", "end_turn have where"),
    _idiom("quanto eu tenho", "score me"),
    _idiom("quanto tenho", "score me"),
    _idiom("me da", "take"),
    _idiom("boa jogada", "hint"),
    _idiom("eu faco", "do"),
    _idiom("que faco", "do"),
    _idiom("faco o que", "do"),
    _idiom("que fazer", "do"),
    _idiom("^ e agora $", "do"),
    _idiom("como eu to", "score me"),
    _idiom("voce acha", "hint"),
    _idiom("so isso", "end_turn"),
    _idiom("e isso $", "end_turn"),
    _idiom("e isso por mim", "end_turn"),
    _idiom("^ proximo $", "end_turn"),
    _idiom("pego uma", "card"),
    _idiom("e comigo", "turn me"),
    _idiom("tenho que", "need"),
    _idiom("tem que", "need"),
    _idiom("tu achas", "hint"),
    _idiom("como e que eu to", "score me"),
    _idiom("eu ia dizer", "aside", "what say mean me"),
    _idiom("eu ia falar", "aside", "what say mean me"),
    _idiom("eu estava dizendo", "aside", "what say mean me"),
    _idiom("primeira vez", "aside", "first lead score turn play"),
    _idiom("no inicio", "first"),
    _idiom("no comeco", "first"),
    _idiom("baixo o jogo", "go_out", "play"),
    _idiom("baixar o jogo", "go_out", "play"),
    _idiom("baixo tudo", "go_out", "play"),
    _idiom("baixar tudo", "go_out", "play"),
    _idiom("baixo minhas cartas", "go_out", "play"),
    # Dutch
    _idiom("dichtst bij uitgaan", "fewest card", "go_out play"),
    _idiom("dichtst bij uit", "fewest card", "go_out play"),
    _idiom("stop met", "", "end_turn"),  # "stop met kijken"
    _idiom("hou op met", "", "end_turn"),
    _idiom("waar niks ligt", "empty", "end_turn where"),
    _idiom("waar niets ligt", "empty", "end_turn where"),
    _idiom("sta ik ervoor", "score me"),
    _idiom("sta ik er voor", "score me"),
    _idiom("staat er voor", "score lead"),
    _idiom("staat er op een", "score lead"),
    _idiom("staat ervoor", "score lead"),
    _idiom("hoe staat * ervoor", "score"),
    _idiom("hoe staat * er voor", "score"),
    _idiom("goede zet", "hint"),
    _idiom("doe ik", "do"),
    _idiom("ik doen", "do"),
    _idiom("wat nu $", "do"),
    _idiom("^ en nu $", "do"),
    _idiom("ligt er voor", "lead score"),
    _idiom("hoe sta ik", "score me"),
    _idiom("wat denk jij", "hint"),
    _idiom("dat was het", "end_turn"),
    _idiom("aan kop", "lead score"),
    _idiom("^ volgende $", "end_turn"),
    _idiom("pak er een", "card"),
    _idiom("pak er eentje", "card"),
    _idiom("dat is alles", "end_turn"),
    _idiom("wat vind jij", "hint"),
    _idiom("wat denk je", "hint"),
    _idiom("wilde ik zeggen", "aside", "what say mean me"),
    _idiom("ging ik zeggen", "aside", "what say mean me"),
    _idiom("eerste keer", "aside", "first lead score turn play"),
    _idiom("dichte stapel", "stock", "face_up first"),
    _idiom("was ik aan het zeggen", "aside", "what say mean me"),
    _idiom("aan het begin", "first"),
    _idiom("wat mag je doen", "do"),
    _idiom("wat mag je allemaal doen", "do"),
    _idiom("in het begin", "first"),
    _idiom("waarop leggen", "build"),  # "welke kaart mag ik waarop leggen?"
    _idiom("leg alles neer", "go_out", "play"),
    _idiom("alles neerleggen", "go_out", "play"),
)


_IDIOMS_BY_FIRST: dict[str, list[Idiom]] = {}
for _known in IDIOMS:  # "^" (the line's start) is keyed by the word after it
    _first = _known[0][1] if _known[0][0] == "^" else _known[0][0]
    _IDIOMS_BY_FIRST.setdefault(_first, []).append(_known)


# Dutch puts a verb's particle last: "stel jij voor?" is "voorstellen", "leg af" "afleggen".
_PARTICLES = frozenset({"voor", "af", "weg", "op", "uit", "mee", "neer", "terug", "aan"})


def separable_concepts(words: tuple[str, ...] | list[str]) -> frozenset[str]:
    """The concepts of a Dutch verb split around the line: its particle last, its stem before."""
    if len(words) >= 2 and words[-1] == "gaan" and {"laat", "laten"} & set(words):
        return frozenset({"discard"})  # "ik laat harten drie gaan": let it go, thrown
    if len(words) < 2 or words[-1] not in _PARTICLES:
        return frozenset()
    particle = words[-1]
    for word in words[:-1]:
        # "levert … op": opleveren; "sluit … af": afsluiten (its "t" is the stem's)
        for stem in dict.fromkeys((word[:-1] if word.endswith("t") else word, word)):
            for joined in (particle + stem + "en", particle + stem + stem[-1:] + "en"):
                found = form_concepts(joined, "nl")
                if found:
                    return frozenset(found)
    return frozenset()


_TRAILING = frozenset(
    {"ai", "la", "ca", "hein", "quoi", "ne", "hoor", "toch", "then", "now", "hey"}
)


def _only_padding(words: tuple[str, ...] | list[str]) -> bool:
    """Nothing but padding after an idiom anchored at the end ("é isso aí", "c'est à toi là")."""
    return all(word in _TRAILING or word in FILLERS for word in words)


# Words that may sit inside an idiom without changing it: "wie staat er nu voor?"
_SOFT = frozenset(
    {"nu", "now", "la", "bien", "really", "mesmo", "echt", "wel", "just", "ja", "eigenlijk",
     "actually", "vraiment", "realmente"}
)  # fmt: skip


def idiom_spans(words: tuple[str, ...] | list[str]) -> list[tuple[int, int, Idiom]]:
    """Where each idiom occurs in ``words``: (start, end, idiom), ends exclusive; also
    with softening words ("nu", "bien") left out, mapped back to where they were."""
    found = _spans(words)
    kept = [index for index, word in enumerate(words) if word not in _SOFT]
    if len(kept) < len(words):
        seen = {(start, end, idiom[0]) for start, end, idiom in found}
        for start, end, idiom in _spans([words[index] for index in kept]):
            span = (kept[start], kept[end - 1] + 1, idiom)
            if (span[0], span[1], idiom[0]) not in seen and all(
                p in ("^", "$") or p in words[span[0] : span[1]] or p == "*" for p in idiom[0]
            ):
                found.append(span)
    return found


def _spans(words: tuple[str, ...] | list[str]) -> list[tuple[int, int, Idiom]]:
    found = []
    for start, first in enumerate(words):
        for idiom in _IDIOMS_BY_FIRST.get(first, ()):
            phrase = idiom[0]
            if phrase[0] == "^" and start != 0:
                continue
            anchored = phrase[-1] == "$"
            body = phrase[1:] if phrase[0] == "^" else phrase
            body = body[:-1] if anchored else body
            window = words[start : start + len(body)]
            if len(window) < len(body):
                continue
            if all(p in ("*", w) for p, w in zip(body, window, strict=True)):
                if anchored and not _only_padding(words[start + len(body) :]):
                    continue
                found.append((start, start + len(body), idiom))
    return found
