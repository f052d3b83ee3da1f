"""Game Night processes: they talk to each other only over MQTT."""
