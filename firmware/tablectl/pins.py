"""GPIO numbers of the controller. Generated from hardware/pins.json by `python -m companion.link.pinmap`."""

SEAT_BUTTONS = (0, 1, 2, 3, 4, 5, 6)
KEY_ROWS = (7, 8, 9, 10)
KEY_COLS = (11, 12, 13)
KEYS = ('1', '2', '3', '4', '5', '6', '7', '8', '9', 'ok', 'back', 'undo')
BUZZER = 15
SPI_ID = 0
SPI_BAUDRATE = 1000000
SPI_SCK = 18
SPI_MOSI = 19
SPI_MISO = 16
RC522_CS = 17
RC522_RST = 20
PIXELS = 22
SEAT_PIXELS = 7
STRIP_PIXELS = 16
STATUS_LED = 25
