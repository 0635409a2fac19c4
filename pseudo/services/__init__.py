"""Per-scope services shared by the rules: one surrogate person per person, one address world,
one clock, and which makers are cited with their product. Each is owned by one module and made on first use, once per scope and locale pack; a
rule declares the services it asks for (`Rule.requires`) and the engine checks them at start-up.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, Mapping

from pseudo.errors import PseudoError
from pseudo.lists.pack import LocalePack
from pseudo.scope import ScopeState
from pseudo.services.address import AddressWorld
from pseudo.services.clock import Clock
from pseudo.services.makers import MakerService
from pseudo.services.person import PersonService

SERVICES = ("person", "address", "clock", "makers")


class Services:
    """The services of one scope, for a document of one pack. `settings` holds the options the
    engine configures them with: `clock` the dates and ages options, `person` the names options,
    `address` the places options, `makers` the organisations options."""

    def __init__(self, scope: ScopeState, pack: LocalePack | None, settings: Mapping[str, Mapping[str, Any]]):
        self._scope = scope
        self._pack = pack
        self._settings = settings

    @cached_property
    def clock(self) -> Clock:
        settings = self._settings
        return self._scope.service("clock", lambda: Clock(self._scope, settings["dates"], settings["ages"]))  # type: ignore[return-value]

    @cached_property
    def address(self) -> AddressWorld:
        pack = self._needs_pack("address")
        return self._scope.service(f"address:{pack.code}", lambda: AddressWorld(self._scope, pack, self._settings["places"], lambda: self.makers))  # type: ignore[return-value]

    @cached_property
    def person(self) -> PersonService:
        pack = self._needs_pack("person")
        return self._scope.service(
            f"person:{pack.code}", lambda: PersonService(self._scope, pack, self._settings["names"], lambda: self.clock, lambda: self.address)
        )  # type: ignore[return-value]

    @cached_property
    def makers(self) -> MakerService:
        pack = self._needs_pack("makers")
        return self._scope.service(f"makers:{pack.code}", lambda: MakerService(pack, self._settings["organisations"]))  # type: ignore[return-value]

    def _needs_pack(self, service: str) -> LocalePack:
        if self._pack is None:
            raise PseudoError(f"the {service} service needs a locale pack")
        return self._pack
