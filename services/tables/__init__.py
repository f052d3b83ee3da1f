"""The table authority: applies intents through the engines, logs them, publishes views.

Run alone: ``python -m services.tables --broker mqtt://tables:SECRET@127.0.0.1:1883
--data gamenight.db``. In-process (tests, ``gamenight serve``): ``run_tables(...)``
in ``services.tables.runner``.
"""
