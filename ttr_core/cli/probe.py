from ttr_core.cli.app import app  # noqa: F401
