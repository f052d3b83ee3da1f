"""The wire contract between Game Night's services and screens: topics and messages."""

PROTOCOL_VERSION = 1
