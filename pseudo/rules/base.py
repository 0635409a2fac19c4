"""The interface every rule family implements, and the context a rule sees."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Mapping, Sequence

import regex

from pseudo.keyed import KeyedStream
from pseudo.lists.weighted import loose
from pseudo.model import Document, Span

if TYPE_CHECKING:
    from pseudo.lists.pack import LocalePack
    from pseudo.scope import ScopeState

_SPACES = regex.compile(r"\s+")

MAX_ATTEMPTS = 64


@lru_cache(maxsize=1 << 16)
def normalise(value: str) -> str:
    """The default consistency key: case, runs of whitespace and left-out accents ("Garcia" for
    "García") do not make another value."""
    return loose(_SPACES.sub(" ", value).strip())


@dataclass(frozen=True, slots=True)
class Option:
    """One configurable setting of a rule, with its default and the values it accepts."""

    default: Any
    help: str
    kind: type | tuple[type, ...] = object
    choices: tuple[Any, ...] = ()
    minimum: float | None = None


@dataclass(frozen=True, slots=True)
class Target:
    """The span a rule is asked to replace, with what the tagset says about it."""

    span: Span
    text: str
    label: str
    role: str | None = None
    kind: str | None = None


@dataclass(frozen=True, slots=True)
class Surrogate:
    """A rule's answer. `kept` marks a value left unchanged on purpose (a county, a child's age)."""

    text: str
    kept: bool = False
    fallback: str | None = None


@dataclass(slots=True)
class Context:
    """What a rule sees: the document, its locale pack, the scope's keyed choices and memory."""

    document: Document
    pack: "LocalePack | None"
    scope: "ScopeState"
    options: Mapping[str, Any]
    rule: str
    targets: Sequence[Target] = ()  # every span of the document, with its canonical label
    replaced: frozenset[int] = frozenset()  # start offsets of the spans that get surrogates
    done: list[tuple[Target, str]] = field(default_factory=list)
    fallbacks: list[str] = field(default_factory=list)
    cache: dict[str, Any] = field(default_factory=dict)  # per document and rule: analyses done once
    all_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # rule name -> its options

    def stream(self, *parts: str | int) -> KeyedStream:
        """A keyed stream for this scope and rule; the same parts always give the same draws."""
        return self.scope.keyring.stream(self.scope.id, self.rule, *parts)

    def consistent(
        self,
        family: str,
        key: str,
        draw: Callable[[KeyedStream], str],
        *,
        one_to_one: bool = True,
        shares_words: bool = False,
    ) -> str:
        """The surrogate of `key` in this scope: drawn once from the key, then remembered.

        Candidates equal to the original, holding it as words (unless `shares_words`: the rule
        keeps some words on purpose), equal to another original of the scope or (one_to_one) to
        the surrogate of another value of the family are rejected and drawn again, so the
        mapping is injective wherever the pool is large enough.
        """
        return self.scope.consistent(
            self.rule, family, key, draw, one_to_one=one_to_one, note=self.fallbacks.append, shares_words=shares_words
        )

    def text_before(self, span: Span, chars: int = 60) -> str:
        return self.document.text[max(0, span.start - chars) : span.start]


class Rule:
    """A rule family: the canonical labels it serves, the lists it needs, one method to replace."""

    name: ClassVar[str]
    labels: ClassVar[tuple[str, ...]]
    needs: ClassVar[tuple[str, ...]] = ()
    options: ClassVar[Mapping[str, Option]] = {}
    default_strategy: ClassVar[str] = "surrogate"
    own_casing: ClassVar[bool] = False  # True: the rule cases its output itself (acronyms, tags)

    def priority(self, target: Target) -> int:
        """Targets of a rule run by priority, then in document order (a town before its postcode)."""
        return 0

    def replace(self, target: Target, ctx: Context) -> Surrogate | str:
        raise NotImplementedError
