"""Errors the engine raises, graded by what went wrong."""


class InvalidAction(ValueError):
    """An action's text cannot be parsed, or names something that does not exist."""


class IllegalAction(ValueError):
    """A well-formed action that the rules do not allow now.

    The message starts with the rule that forbids it:
    `R7: a face-up locomotive cannot be your second card`.
    """

    def __init__(self, rule: str, message: str):
        super().__init__(f"{rule}: {message}")
        self.rule = rule
