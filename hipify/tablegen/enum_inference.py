"""An unmapped CUDA enum whose mapped constants all belong to one HIP enum maps to that enum (cudaDeviceAttr ->
hipDeviceAttribute_t: its constants come from HIP's NVIDIA backend)."""

from __future__ import annotations

from collections import defaultdict

from .entries import Entry
from .matcher import Matcher
from .target import Target


def infer_enums_from_members(entries: dict[str, Entry], targets: dict[str, Target], matcher: Matcher) -> None:
    """Updates ``targets`` (and the matcher's same-value pairs for the constants of an enum mapped this way)."""
    members: dict[str, list[str]] = defaultdict(list)
    for name, entry in entries.items():
        if entry.kind == "enum_constant" and entry.decl.parent:
            members[entry.decl.parent].append(name)
    current = matcher.hip.current
    for enum, consts in sorted(members.items()):
        # a parameter-position guess yields to the enum its constants map into (CUaddress_mode -> HIPaddress_mode,
        # not the runtime's hipTextureAddressMode that hipTexRefSetAddressMode takes)
        if enum not in targets or (targets[enum].name and targets[enum].source != "signature"):
            continue
        parents = [
            h.decl.parent
            for c in consts
            if targets[c].name
            for h in current.names.get(targets[c].name, ())
            if h.decl.kind == "enum_constant"
        ]
        if len(parents) < 2 or len(set(parents)) != 1 or parents[0] not in current:
            continue
        t = matcher.target(parents[0], "enum-members")
        if not t.name:
            continue
        targets[enum] = t
        for c in consts:
            value = entries[c].decl.value
            if targets[c].name and value and targets[c].status != "removed":
                matcher.by_value.setdefault((t.name, value), targets[c].name)
