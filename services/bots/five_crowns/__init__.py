"""Five Crowns players: ``easy``, ``normal`` and ``hard`` (and a measuring-only ``omniscient``).

``memory`` follows the public events a seat's views show (the discard pile, who took
and threw what); ``values`` prices hands with the engine's exact meld solver.
"""
