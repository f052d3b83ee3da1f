"""The compiled core of the meld solver (``_meldcore``, C), if it was built.

The pure-Python solver (``meld_search``, ``melds``, ``swaps``) is the reference and the
fallback: the compiled one gives the same answers (``tests/engine/five_crowns/
test_fc_compiled.py`` checks them on random hands), several times faster. It is built by
``pip install`` where a C compiler exists (``setup.py``); ``GAMENIGHT_PURE_PYTHON=1``
ignores it (to compare, or to test the fallback).
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

PURE_PYTHON = "GAMENIGHT_PURE_PYTHON"


def _load() -> ModuleType | None:
    if os.environ.get(PURE_PYTHON):
        return None
    try:
        return importlib.import_module("engine.five_crowns._meldcore")
    except ImportError:  # not built (no C compiler at install): the Python solver answers
        return None


core = _load()
