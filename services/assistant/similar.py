"""Questions recognised by likeness to labelled lines, when the rules found no reading.

The rule-based reading (``questions``, ``understand``) answers what its words place. A
question put another way ("card totals for everyone?") may still be close to lines people
said for that question: every labelled line of the corpus and the held-out batches, in
the four languages, is an exemplar (``exemplars.txt``: language, game, kind, line). A line
is scored against them by TF-IDF cosine over what it carries that does not depend on the
language (concepts, a card or pile named, asked or said) and what does (Snowball stems,
stem pairs, character trigrams, for forms no list knows), and the nearest kinds vote.

Only a question is ever answered so (its parameters, a seat named, a card's rank, come
from the reading); a line nearest to an action, to chatter or to a question that needs a
particular card ("can I play the seven?") is left to the refusal the rules gave. No table
action is ever sent by likeness: an action needs every word placed (``understand``).
"""

from __future__ import annotations

import heapq
import itertools
import math
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from services.assistant import questions
from services.assistant.outcomes import Answer
from services.assistant.reading import Reading, read
from services.assistant.words import FILLERS, WILD_WORDS, first_names, is_known, stem_in

EXEMPLARS = Path(__file__).resolve().parent / "exemplars.txt"
KINGS, CROWNS = "kings-corner", "five-crowns"
# Kinds that are no question answered by likeness: actions, chatter, questions about one card.
ACTION, NONE, SPECIFIC = "action", "none", "specific"
# A line answered by likeness must be at least this close (cosine) to its nearest exemplar
# of the kind voted, and the vote must win by ``MARGIN``: chosen by leave-one-batch-out
# (``python -m benchmarks.assistant --cross-validate``) for few wrong answers, not most.
THRESHOLD = 0.5
MARGIN = 1.3
NEIGHBOURS = 5
COMMON = 300  # a feature in more exemplars than this does not pick candidates…
CANDIDATES = 60  # …of which this many nearest are compared on every feature
# Weights of the feature groups: what carries across languages counts most.
_WEIGHT = {"c": 1.6, "k": 1.2, "q": 0.8, "w": 1.0, "b": 0.7, "g": 0.35, "n": 1.0}

_SIMPLE: dict[str, str] = {
    "help": "help",
    "round_is": "round",
    "hand": "hand",
    "hand_empty": "hand",
    "discard_top": "discard_top",
    "discard_empty": "discard_top",
    "wild": "wild",
    "wild_none": "wild",
    "turn": "turn",
    "turn_you": "turn",
    "turn_none": "turn",
    "no_scores": "standings",
    "my_total": "standings",
    "score_of": "standings",
    "cards_all": "count",
    "no_jokers": "value",
    "no_such_card": "value",
}
_BY_PREFIX = (
    ("hint_", "hint"),
    ("stock_count", "stock"),
    ("leader", "standings"),
    ("cards_of", "count"),
    ("cards_you", "count"),
    ("card_value", "value"),
)
# Rule topics said with the table's options folded in, back to the topic itself.
_RULE_BASES = ("draw", "score", "move", "discard_taken")


def kind_of(expected: str) -> str:
    """The kind of question (or ``action``, ``none``, ``specific``) a labelled line is."""
    head, *rest = expected.split()
    if head == "refuse":
        return NONE if rest and rest[0] == "not_understood" else ACTION
    if head != "answer":
        return ACTION  # a table action, or a question back about one
    code = rest[0]
    if code in _SIMPLE:
        return _SIMPLE[code]
    for prefix, kind in _BY_PREFIX:
        if code.startswith(prefix):
            return kind
    if code.startswith(("rule_kc_", "rule_fc_")):
        topic = code[len("rule_kc_") :]
        base = next((b for b in _RULE_BASES if topic == b or topic.startswith(b + "_")), topic)
        return f"{code[:7]}:{base}"
    return SPECIFIC  # "can I play the seven?", "do I have the queen?": about one card


def features(reading: Reading, lang: str | None, names: frozenset[str]) -> dict[str, float]:
    """The line's weighted features, L2-unnormalised (``Model`` applies idf and norms)."""
    found: Counter[str] = Counter()
    stems: list[str] = []
    for word in reading.words:
        if word in names:
            stems.append("<name>")
            found["n:name"] += 1
            continue
        stem = stem_in(word, lang)
        stems.append(stem)
        found["w:" + stem] += 1
        if len(word) >= 3 and not word.isdigit():
            padded = f"^{word}$"
            for start in range(len(padded) - 2):
                found["g:" + padded[start : start + 3]] += 1
    for first, second in itertools.pairwise(stems):
        found[f"b:{first}_{second}"] += 1
    for concept in reading.concepts:
        found["c:" + concept] += 1
    if reading.cards:
        found["k:card"] += 1
        if any(spec.rank for spec in reading.cards):
            found["k:rank"] += 1
        if any(spec.joker or spec.wild for spec in reading.cards):
            found["k:wild"] += 1
    if reading.piles:
        found["k:pile"] += 1
    if reading.question:
        found["q:asked"] += 1
    if reading.negated:
        found["q:negated"] += 1
    return {key: (1 + math.log(count)) * _WEIGHT[key[0]] for key, count in found.items()}


@dataclass(frozen=True, slots=True)
class Exemplar:
    """One labelled line: its language, the game it was said in, its kind, its words."""

    lang: str
    game: str
    kind: str
    text: str


def load_exemplars(path: Path = EXEMPLARS) -> list[Exemplar]:
    lines = path.read_text("utf-8").splitlines()
    parts = (line.split(" | ", 3) for line in lines if line and not line.startswith("#"))
    return [Exemplar(*part) for part in parts]


EXEMPLAR_NAMES = frozenset({"ana", "ben", "zoe"})  # the names the labelled lines use


@cache
def _featured(exemplar: Exemplar) -> dict[str, float]:
    return features(
        read(exemplar.text, exemplar.lang, EXEMPLAR_NAMES), exemplar.lang, EXEMPLAR_NAMES
    )


class Model:
    """Exemplars indexed by feature, for cosine nearest neighbours."""

    def __init__(self, exemplars: Iterable[Exemplar]) -> None:
        self.exemplars = list(exemplars)
        vectors = []
        for exemplar in self.exemplars:
            vectors.append(_featured(exemplar))
            # Built beside the broker and the pages in one process: handing the GIL over
            # after each line keeps the broker's round trips at p50 3 ms meanwhile, not 28.
            time.sleep(0)
        frequency: Counter[str] = Counter(key for vector in vectors for key in vector)
        total = len(vectors) + 1
        self.idf = {key: math.log(total / (1 + df)) + 1 for key, df in frequency.items()}
        self.postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        self.vocabulary: dict[str, set[str]] = defaultdict(set)  # stems said, by kind
        for exemplar, vector in zip(self.exemplars, vectors, strict=True):
            self.vocabulary[exemplar.kind].update(key for key in vector if key[0] == "w")
        self.asked = set().union(
            *(
                said
                for kind, said in self.vocabulary.items()
                if kind not in (ACTION, NONE, SPECIFIC)
            )
        )  # stems said in some question
        self.vectors = [self._weigh(vector) for vector in vectors]
        for index, weighted in enumerate(self.vectors):
            for key, value in weighted.items():
                self.postings[key].append((index, value))

    def _weigh(self, vector: Mapping[str, float]) -> dict[str, float]:
        weighted = {key: value * self.idf[key] for key, value in vector.items() if key in self.idf}
        norm = math.sqrt(sum(value * value for value in weighted.values())) or 1.0
        return {key: value / norm for key, value in weighted.items()}

    def vote(self, vector: Mapping[str, float], game: str | None) -> tuple[str, float, float]:
        """The kind the nearest exemplars vote for, the closest of them, and the vote's
        ratio to the runner-up's (rules of the other game do not vote)."""
        query = self._weigh(vector)
        # Candidates by the rarer features only (few postings to add up), then their
        # exact cosine over every feature: fast, and the same nearest in practice.
        partial: dict[int, float] = defaultdict(float)
        for key, value in query.items():
            posting = self.postings.get(key, ())
            if len(posting) <= COMMON:
                for index, weight in posting:
                    partial[index] += value * weight
        if partial:
            chosen: Iterable[int] = heapq.nlargest(CANDIDATES, partial, key=partial.__getitem__)
        else:  # only common words ("what is it?"): every exemplar that shares one
            chosen = {index for key in query for index, _ in self.postings.get(key, ())}
        scores = {
            index: sum(value * self.vectors[index].get(key, 0.0) for key, value in query.items())
            for index in chosen
        }
        wrong_game = "rule_fc:" if game == KINGS else "rule_kc:"
        nearest = sorted(scores.items(), key=lambda item: -item[1])
        votes: dict[str, float] = defaultdict(float)
        closest: dict[str, float] = {}
        counted = 0
        for index, score in nearest:
            kind = self.exemplars[index].kind
            if kind.startswith(wrong_game):
                continue
            votes[kind] += score
            closest.setdefault(kind, score)
            counted += 1
            if counted == NEIGHBOURS:
                break
        if not votes:
            return NONE, 0.0, 0.0
        ranked = sorted(votes.items(), key=lambda item: -item[1])
        kind, best = ranked[0]
        runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
        return kind, closest[kind], best / runner_up if runner_up else math.inf

    def explains(
        self, kind: str, reading: Reading, lang: str | None, names: frozenset[str]
    ) -> bool:
        """Every word the assistant does not know was said in some line of ``kind``:
        "who ordered pizza?" is no question of the game, however close its shape."""
        said = self.vocabulary.get(kind, set())
        return all(stem in said for stem in _unknown_stems(reading, lang, names))

    def may_answer(self, reading: Reading, lang: str | None, names: frozenset[str]) -> bool:
        """Every unknown word was said in some question: else no vote can answer (and
        chatter, most of what reaches here, costs no vote)."""
        return all(stem in self.asked for stem in _unknown_stems(reading, lang, names))


def _unknown_stems(reading: Reading, lang: str | None, names: frozenset[str]) -> list[str]:
    return [
        "w:" + stem_in(word, lang)
        for word in reading.words
        if len(word) > 2
        and word not in names
        and word not in FILLERS
        and not word.isdigit()
        and not is_known(word)
    ]


_default: list[Model] = []
_default_lock = threading.Lock()


def default_model() -> Model:
    """The model of the shipped exemplars, built once (a second caller waits for it)."""
    with _default_lock:
        if not _default:
            _default.append(Model(load_exemplars()))
        return _default[0]


_model: list[Model] = []  # a model set for a measurement (``use``), else the default


def use(model: Model | None) -> None:
    """Recognise by ``model`` (the benchmark's leave-one-batch-out), or by default again."""
    _model.clear()
    if model is not None:
        _model.append(model)


def guess(
    reading: Reading, lang: str | None, game: str | None, names: frozenset[str]
) -> tuple[str, float, float]:
    model = _model[0] if _model else default_model()
    if not model.may_answer(reading, lang, names):
        return NONE, 0.0, 0.0
    vector = features(reading, lang, names)
    kind, closest, ratio = model.vote(vector, game)
    if not model.explains(kind, reading, lang, names):
        return NONE, closest, ratio
    return kind, closest, ratio


def recognise(
    reading: Reading, state: Mapping[str, Any], names: Mapping[int, str], lang: str | None
) -> Answer | None:
    """The answer to the question the line is closest to, when close enough; else None."""
    names_said = first_names(names)
    game = state.get("game")
    kind, closest, ratio = guess(reading, lang, game if isinstance(game, str) else None, names_said)
    if closest < THRESHOLD or ratio < MARGIN:
        return None
    return answer(kind, reading, state, names)


def answer(
    kind: str, reading: Reading, state: Mapping[str, Any], names: Mapping[int, str]
) -> Answer | None:
    """The answer of question ``kind`` here, parameters from the reading; None for kinds
    that are no question answered so."""
    if kind.startswith(("rule_kc:", "rule_fc:")):
        return questions.rule_answer(kind.split(":", 1)[1], state)
    wild_said = bool(WILD_WORDS & set(reading.words)) or any(s.wild for s in reading.cards)
    by_kind: dict[str, Callable[[], Answer]] = {
        "help": lambda: questions.help_answer(state),
        "hint": lambda: questions.hint_answer(state),
        "turn": lambda: questions.turn_answer(state),
        "stock": lambda: questions.stock_answer(state),
        "discard_top": lambda: questions.discard_top_answer(state),
        "wild": lambda: questions.wild_answer(state),
        "hand": lambda: questions.hand_answer(state),
        "round": lambda: questions.round_answer(state),
        "standings": lambda: questions.standings_answer(reading, state, names),
        "count": lambda: questions.cards_answer(reading, state, names),
        "value": lambda: questions.value_answer(reading, state, wild_said),
    }
    made = by_kind.get(kind)
    return made() if made is not None else None
