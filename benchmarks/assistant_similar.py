"""The assistant's likeness fallback (``services.assistant.similar``), measured honestly.

Leave-one-batch-out: for each held-out batch, the exemplars are every labelled line but
that batch's (and the corpus lines that repeat one of its lines), and the batch is read
twice: by the likeness alone (how often the nearest kind is right, wrong, or abstains,
for question lines; how often a line that is no question would be answered), and by the
whole assistant with that model as its fallback (exact matches, as ``--heldout``). The
rules were fixed on every batch, so the whole assistant's figure is optimistic; the
likeness-alone figure is the honest one for the fallback.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

from services.assistant import similar
from services.assistant.reading import read
from services.assistant.respond import respond
from services.assistant.similar import ACTION, NONE, SPECIFIC, Exemplar, Model, kind_of

QUESTION_LESS = (ACTION, NONE, SPECIFIC)


def _game(position: str) -> str:
    return similar.KINGS if position.startswith("K") else similar.CROWNS


def batches(corpus: ModuleType, heldout: Path) -> dict[int, list[Any]]:
    numbers = sorted({1} | {int(f.stem.split("_")[1]) for f in heldout.glob("en_*.txt")})
    found = {}
    for number in numbers:
        suffix = "" if number == 1 else f"_{number}"
        found[number] = [
            line
            for lang in corpus.LANGUAGES
            for line in corpus.load(lang, heldout / f"{lang}{suffix}.txt")
        ]
    return found


def exemplars_of(lines: list[Any]) -> list[Exemplar]:
    seen: set[tuple[str, str]] = set()
    made = []
    for line in lines:
        key = (line.lang, line.text.lower().strip())
        if key in seen:
            continue
        seen.add(key)
        made.append(Exemplar(line.lang, _game(line.position), kind_of(line.expected), line.text))
    return made


def write_exemplars(corpus: ModuleType, heldout: Path) -> int:
    lines = [line for lang in corpus.LANGUAGES for line in corpus.load(lang)]
    for batch in batches(corpus, heldout).values():
        lines += batch
    made = exemplars_of(lines)
    header = (
        "# The assistant's labelled lines (lang | game | kind | line), from the test corpus\n"
        "# and the held-out batches: python -m benchmarks.assistant --write-exemplars\n"
    )
    body = "".join(f"{e.lang} | {e.game} | {e.kind} | {e.text}\n" for e in made)
    similar.EXEMPLARS.write_text(header + body, "utf-8")
    print(f"{len(made)} exemplars written to {similar.EXEMPLARS}")
    return 0


def cross_validate(corpus: ModuleType, heldout: Path) -> int:
    corpus_lines = [line for lang in corpus.LANGUAGES for line in corpus.load(lang)]
    held = batches(corpus, heldout)
    totals: Counter[str] = Counter()
    print("leave-one-batch-out of the likeness fallback")
    print(
        "  batch  questions: right wrong abstain | others answered"
        " | whole assistant exact (rules+likeness, rules alone)"
    )
    for number, test in held.items():
        texts = {(line.lang, line.text.lower().strip()) for line in test}
        train = [
            line
            for line in corpus_lines + [x for n, b in held.items() if n != number for x in b]
            if (line.lang, line.text.lower().strip()) not in texts
        ]
        model = Model(exemplars_of(train))
        alone: Counter[str] = Counter()
        for line in test:
            kind = kind_of(line.expected)
            reading = read(line.text, line.lang, similar.EXEMPLAR_NAMES)
            similar.use(model)
            guessed, closest, ratio = similar.guess(
                reading, line.lang, _game(line.position), similar.EXEMPLAR_NAMES
            )
            sure = closest >= similar.THRESHOLD and ratio >= similar.MARGIN
            answers = sure and guessed not in QUESTION_LESS
            if kind in QUESTION_LESS:
                alone["others"] += 1
                alone["others_answered"] += answers
            else:
                alone["questions"] += 1
                alone[
                    "right" if answers and guessed == kind else "wrong" if answers else "abstain"
                ] += 1
        exact = {}
        for name, fallback in (("with", model), ("rules", Model([]))):
            similar.use(fallback)
            exact[name] = sum(
                corpus.expected_matches(
                    line.expected,
                    respond(
                        {"v": 1, "id": "x", "text": line.text, "lang": line.lang},
                        corpus.seat_view(line.position),
                        corpus.NAMES,
                    ),
                )
                for line in test
            )
        similar.use(None)
        totals.update(alone)
        totals.update(
            {"lines": len(test), "exact_with": exact["with"], "exact_rules": exact["rules"]}
        )
        q = alone["questions"] or 1
        print(
            f"  {number:5}  {alone['questions']:4} q: {alone['right']:4} {alone['wrong']:4}"
            f" {alone['abstain']:4} ({100 * alone['right'] / q:5.1f}% right,"
            f" {100 * alone['wrong'] / q:4.1f}% wrong)"
            f" | {alone['others_answered']:3}/{alone['others']:<4}"
            f" | {exact['with']}/{len(test)} {100 * exact['with'] / len(test):5.1f}%"
            f" ({100 * exact['rules'] / len(test):5.1f}%)"
        )
    q = totals["questions"] or 1
    print(
        f"  all    {totals['questions']:4} q: {totals['right']:4} {totals['wrong']:4}"
        f" {totals['abstain']:4} ({100 * totals['right'] / q:5.1f}% right,"
        f" {100 * totals['wrong'] / q:4.1f}% wrong)"
        f" | {totals['others_answered']:3}/{totals['others']:<4}"
        f" | {100 * totals['exact_with'] / totals['lines']:5.1f}%"
        f" ({100 * totals['exact_rules'] / totals['lines']:5.1f}%)"
    )
    print(
        f"  threshold {similar.THRESHOLD}, margin {similar.MARGIN}, {similar.NEIGHBOURS} neighbours"
    )
    return 0
