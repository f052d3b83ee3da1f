"""Kings in the Corner players: ``easy``, ``normal`` (a rule ordering) and ``hard`` (search).

``board`` reads a seat view and follows pile tops; ``reading`` infers from the boards the
others left what they probably lack; ``position`` turns a view into an engine state the
seat could be in (the hidden cards dealt by that read), so ``hard`` asks the engine,
never its own rules; ``judge`` ranks the boards a turn can leave. ``omniscient`` is for
the arena's measurements only.
"""
