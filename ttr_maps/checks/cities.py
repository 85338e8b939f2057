"""Checks on cities."""
