"""The table controller's firmware: reports presses and tags, drives LEDs and the buzzer on command."""

FIRMWARE_VERSION = "0.1.0"
