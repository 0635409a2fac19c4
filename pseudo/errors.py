"""Errors that are safe to print: they name files, document ids and offsets, never span text."""

from __future__ import annotations


class PseudoError(Exception):
    """Base class for errors the command line reports in one line."""


class InputError(PseudoError):
    """Bad input: a file, a document or a span that cannot be processed."""

    def __init__(self, message: str, source: str = "", document_id: str | None = None):
        self.message = message
        self.source = source
        self.document_id = document_id
        super().__init__(str(self))

    def __str__(self) -> str:
        where = []
        if self.source:
            where.append(str(self.source))
        if self.document_id is not None:
            where.append(f"document {self.document_id!r}")
        prefix = ": ".join(where)
        return f"{prefix}: {self.message}" if prefix else self.message


class ConfigError(PseudoError):
    """An invalid configuration file or option."""


class LocaleError(PseudoError):
    """A missing or broken locale pack."""
