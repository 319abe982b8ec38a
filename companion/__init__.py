"""Table companion: keeps the books for real board-game tables (Power Grid, Bohnanza, Shifting Stones)."""

__version__ = "0.1.0"
