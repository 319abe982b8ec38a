"""Test and selfplay tooling shared by every game: random playouts and the invariant checks."""
