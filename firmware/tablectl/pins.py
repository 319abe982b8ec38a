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
SEAT_PIXEL_PINS = (22, 14, 20, 21, 26, 27, 28)
STRIP_PIN = 22
SEAT_PIXELS = 7
STRIP_PIXELS = 16
LED_BUDGET_MA = 350
STATUS_LED = 25
