"""The one error type for input files the toolkit cannot read."""


class InputFileError(ValueError):
    """A file that cannot be used; `str()` is one line `file:line: cause`."""

    def __init__(self, file: str, line: int | None, cause: str) -> None:
        self.file = file
        self.line = line
        self.cause = cause
        where = f"{file}:{line}" if line is not None else file
        super().__init__(f"{where}: {cause}")
