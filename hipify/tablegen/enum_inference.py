"""An unmapped CUDA enum whose mapped constants all belong to one HIP enum maps to that enum (cudaDeviceAttr ->
hipDeviceAttribute_t: its constants come from HIP's NVIDIA backend); an unmapped constant of a mapped enum takes the
HIP constant the enum's naming scheme spells (``infer_constants_by_prefix``)."""

from __future__ import annotations

from collections import Counter, defaultdict

from . import rules
from .entries import Entry
from .matcher import Matcher, common_suffix
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


# Enough agreeing pairs for a prefix to be the enum's naming scheme, not a coincidence.
_MIN_PREFIX_VOTES = 3


def infer_constants_by_prefix(entries: dict[str, Entry], targets: dict[str, Target], matcher: Matcher) -> None:
    """A constant without a target takes the HIP constant its enum's naming scheme spells, where that constant is in
    the HIP enum its enum maps to and no CUDA constant maps to it yet: the scheme is the prefix rewrite most of the
    enum's paired constants agree on (cudaDevAttrMaxThreadsPerBlock -> hipDeviceAttributeMaxThreadsPerBlock:
    ``cudaDevAttr`` -> ``hipDeviceAttribute``, so cudaDevAttrMemoryPoolSupportedHandleTypes ->
    hipDeviceAttributeMemoryPoolSupportedHandleTypes, which neither HIP's NVIDIA backend pairs nor a value
    matches). Updates ``targets``."""
    members: dict[str, list[str]] = defaultdict(list)
    for name, entry in entries.items():
        if entry.kind == "enum_constant" and entry.decl.parent:
            members[entry.decl.parent].append(name)
    for enum, consts in sorted(members.items()):
        hip_enum = targets[enum].name if enum in targets else ""
        hip_consts = matcher.constants.get(hip_enum) if hip_enum else None
        if not hip_consts:
            continue
        known = {n for names in hip_consts.values() for n in names}
        votes: Counter[tuple[str, str]] = Counter()
        for c in consts:
            h = targets[c].name
            if h in known:
                k = common_suffix(c, h)
                if k:
                    votes[(c[: len(c) - k], h[: len(h) - k])] += 1
        if not votes:
            continue
        (cuda_prefix, hip_prefix), count = votes.most_common(1)[0]
        if count < _MIN_PREFIX_VOTES or not cuda_prefix:
            continue
        taken = {targets[c].name for c in consts if targets[c].name}
        for c in sorted(consts):
            if targets[c].name or not c.startswith(cuda_prefix):
                continue
            spelled = hip_prefix + c[len(cuda_prefix) :]
            # one spelling only: where HIP has two that differ in case (hipDeviceAttributePciDomainID and, from
            # ROCm 7, ...Id) the value twins choose, consistently with the driver's enum
            if spelled in known and spelled not in taken and len(hip_consts[rules.normalized(spelled)]) == 1:
                t = matcher.target(spelled, "enum-prefix")
                if t.name:
                    targets[c] = t
                    taken.add(spelled)
