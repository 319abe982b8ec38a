"""Start-up of the table controller on the Pico: hand over to the firmware package at once."""

from tablectl import hw

hw.run()
