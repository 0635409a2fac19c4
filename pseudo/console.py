"""What every command shares: messages go to stderr, one line each, and an error exits with 1."""

from __future__ import annotations

import typer

EXIT_ERROR = 1


def say(message: str) -> None:
    typer.echo(message, err=True)
