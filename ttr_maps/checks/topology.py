"""Checks on topology."""
