"""The load generator of ``benchmarks.load``: a small asyncio MQTT client and the players."""
