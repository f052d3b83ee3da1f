"""Offline speech for the assistant: a seat's recorded words to a line of text.

``grammar`` lists the English sentences that make sense for a seat now (its legal actions
and the questions the assistant answers); ``recognizer`` asks pocketsphinx which of them
was said. The text then goes the way of a typed line.
"""
