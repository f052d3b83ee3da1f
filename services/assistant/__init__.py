"""The assistant: typed or spoken lines from a seat become that seat's intents or answers.

``understand`` reads a line in English, French, Portuguese or Dutch against the speaker's
own seat view; ``AssistantRunner`` listens on every seat's ``say`` topic and answers on
that seat's ``reply`` topic, or sends the seat's intent (the tables service answers it).
"""
