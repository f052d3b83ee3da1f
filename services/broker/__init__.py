"""The MQTT broker layer: the embedded broker, Mosquitto's configuration, broker accounts.

``start_embedded_broker`` lives in ``services.broker.embedded`` (it imports amqtt), so a
service that only provisions accounts (``services.broker.accounts``) stays light.
"""
