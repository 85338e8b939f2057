"""Checks on tickets."""
