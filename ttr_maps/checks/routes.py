"""Checks on routes."""
