"""The terminal hand: ``gamenight play CODE --name Ana`` joins a table as a phone does.

It joins over HTTP (the web service's join API), then speaks only the protocol over the
broker's WebSocket: it shows the seat's hand, the board and whose turn it is, and sends
every typed line to the assistant on the seat's ``say`` topic, in the chosen language.
"""
