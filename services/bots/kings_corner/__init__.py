"""Kings in the Corner players: ``easy``, ``normal`` (a rule ordering) and ``hard`` (search).

``board`` reads a seat view; ``position`` turns one into an engine state the seat could
be in (the hidden cards sampled), so ``hard`` asks the engine, never its own rules.
"""
