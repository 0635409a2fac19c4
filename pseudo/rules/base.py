"""The interface every rule family implements, and the context a rule sees."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Mapping

from pseudo.keyed import KeyedStream
from pseudo.model import Span, Target, Tagged
from pseudo.scope import ScopeState
from pseudo.services import Services

if TYPE_CHECKING:
    from pseudo.lists.pack import LocalePack


NOT_RECOGNISED, LISTED, CUED = 0, 1, 2  # how surely a value looks like a rule's label (Rule.recognises)


@dataclass(frozen=True, slots=True)
class Option:
    """One configurable setting of a rule, with its default and the values it accepts."""

    default: Any
    help: str
    kind: type | tuple[type, ...] = object
    choices: tuple[Any, ...] = ()
    minimum: float | None = None


@dataclass(frozen=True, slots=True)
class Surrogate:
    """A rule's answer. `kept` marks a value left unchanged on purpose (a county, a child's age);
    `kept_as` says what it was kept as where the summary counts it ("a product's maker")."""

    text: str
    kept: bool = False
    fallback: str | None = None
    kept_as: str | None = None


@dataclass(slots=True)
class Context:
    """What a rule sees: the tagged document, its locale pack, the rule's own options, the
    scope's keyed draws and the shared services. `memo` holds the rule's own analyses of this
    document (made once, read by no other rule)."""

    document: Tagged
    pack: "LocalePack | None"
    options: Mapping[str, Any]
    rule: str
    scope: ScopeState
    services: Services
    memo: dict[str, Any] = field(default_factory=dict)

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
        run_wide: bool = False,
    ) -> str:
        """The surrogate of `key` in this scope: drawn once from the key, then remembered.

        Candidates equal to the original, holding it as words (unless `shares_words`: the rule
        keeps some words on purpose), equal to another original of the scope, holding one as a
        run of words, or (one_to_one) equal to the surrogate of another value of the family are
        rejected and drawn again, so the mapping is injective wherever the pool is large enough.
        `run_wide`: drawn from the key alone, not the scope, so every scope of the run draws the
        same first candidate (a hospital no place ties to a patient: one ICU's notes name one).
        """
        return self.scope.consistent(
            self.rule, family, key, draw, one_to_one=one_to_one, shares_words=shares_words, run_wide=run_wide
        )

    def text_before(self, span: Span, chars: int = 60) -> str:
        return self.document.text[max(0, span.start - chars) : span.start]


class Rule:
    """A rule family: the canonical labels it serves, the lists it needs, one method to replace."""

    name: ClassVar[str]
    labels: ClassVar[tuple[str, ...]]
    needs: ClassVar[tuple[str, ...]] = ()  # lists of the locale pack
    requires: ClassVar[tuple[str, ...]] = ()  # services, and results of earlier rules, it asks for
    provides: ClassVar[tuple[str, ...]] = ()  # results it makes that later rules may require
    options: ClassVar[Mapping[str, Option]] = {}
    default_strategy: ClassVar[str] = "surrogate"
    own_casing: ClassVar[bool] = False  # True: the rule cases its output itself (acronyms, tags)

    def recognises(self, text: str, after: str, label: str, pack: "LocalePack", options: Mapping[str, Any] | None = None) -> int:
        """How surely a value tagged with another label is one of this rule's (`label`), for a
        tagset label whose values `may_be` several things: CUED (a word in or right after it says
        so: "CALVERT" before "HOSPITAL"), LISTED (the value is in this rule's list) or NOT_RECOGNISED.
        `options`: the rule's configured options (the places rule reads `home`)."""
        return NOT_RECOGNISED

    def priority(self, target: Target, ctx: Context) -> int:
        """Targets of a rule run by priority, then in document order (a town before its postcode)."""
        return 0

    def replace(self, target: Target, ctx: Context) -> Surrogate | str:
        raise NotImplementedError
