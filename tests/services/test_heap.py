"""The heap keeper freezes what has lived a while, and now and then walks everything."""

from __future__ import annotations

from services.heap import HeapKeeper


class Recorder:
    """Stands in for ``gc``: what was asked of it, in order."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def collect(self) -> int:
        self.calls.append("collect")
        return 0

    def freeze(self) -> None:
        self.calls.append("freeze")

    def unfreeze(self) -> None:
        self.calls.append("unfreeze")


def test_a_collection_then_a_freeze_every_period_and_everything_walked_now_and_then() -> None:
    now = [0.0]
    collector = Recorder()
    keeper = HeapKeeper(collector, lambda: now[0], freeze_every=30.0, unfreeze_every=100.0)
    keeper.tick()
    assert collector.calls == []  # nothing before the first period
    now[0] = 30.0
    keeper.tick()
    keeper.tick()  # once per period, however often it ticks
    assert collector.calls == ["collect", "freeze"]
    now[0] = 100.0
    keeper.tick()  # frozen objects walked again: cycles among them are found
    assert collector.calls[2:] == ["unfreeze", "collect", "freeze"]
    now[0] = 120.0
    keeper.tick()  # the freeze period starts again from the unfreeze
    assert collector.calls[5:] == []
    now[0] = 130.0
    keeper.tick()
    assert collector.calls[5:] == ["collect", "freeze"]
