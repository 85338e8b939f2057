"""Every output that is not a check: one module per subject, each with its
reporters.
"""
