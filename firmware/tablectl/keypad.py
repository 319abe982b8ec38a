"""The scanned key matrix: the 3×3 grid and the OK / BACK / UNDO row, each key with a diode."""

KEY_NAMES = (b"1", b"2", b"3", b"4", b"5", b"6", b"7", b"8", b"9", b"ok", b"back", b"undo")


class MatrixSource:
    """Rows are outputs driven low one at a time; columns are inputs with pull-ups.

    Key (row, column) is index row * columns + column, in the order of KEY_NAMES.
    """

    def __init__(self, rows, cols):
        self.rows = rows
        self.cols = cols
        self.count = len(rows) * len(cols)
        for row in rows:
            row.value(1)

    def sample(self, states):
        cols = self.cols
        ncols = len(cols)
        index = 0
        for row in self.rows:
            row.value(0)
            for c in range(ncols):
                states[index + c] = 0 if cols[c].value() else 1
            row.value(1)
            index += ncols
