"""The rules engines, one package per game; each registers itself with companion.core.registry."""
