"""Checks: the registry, one module per area, validation and its reporters."""
