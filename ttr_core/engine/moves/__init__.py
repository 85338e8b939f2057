"""One module per action family, listing and applying it."""
