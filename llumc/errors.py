"""Errors the user must see as one clear line (never a traceback)."""


class LlumcError(Exception):
    """Bad input or an unsupported construct: the message names the cause and where."""


class UnsupportedError(LlumcError):
    """The program uses a construct the encoder cannot handle (message: construct and line)."""
