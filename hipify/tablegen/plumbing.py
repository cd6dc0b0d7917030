"""Header plumbing: calling-convention, export and deprecation-attribute macros (CUBLASAPI, CUDART_CB,
CUSPARSE_DEPRECATED) that user code does not spell as API, and the ones translation drops."""

from __future__ import annotations

import re

from ..knowledge.table import Row, Transform
from .headers import HeaderIndex
from .scan import Decl

_PLUMBING = re.compile(r"(API|API_CDECL|WINAPI|_CB|_EXPORT|DEPRECATED(_\w+)?|_DEPRECATED_\w*)$")
# What a calling-convention/export macro may expand to on some platform; on Linux it is empty.
_CONVENTION = re.compile(
    r"(__stdcall|__cdecl|__declspec\s*\(\s*dll(?:ex|im)port\s*\)"
    r"|__attribute__\s*\(\s*\(\s*visibility\s*\(\s*\"\w+\"\s*\)\s*\)\s*\))?"
)
_CONVENTION_NAME = re.compile(r"(API|_CB|APIENTRY)(_CDECL)?$")
ATTRIBUTE_MACRO_SOURCE = "attribute-macro"


def is_plumbing(decl: Decl) -> bool:
    return decl.kind == "macro" and bool(_PLUMBING.search(decl.name))


def removable(index: HeaderIndex, name: str, hip: HeaderIndex) -> bool:
    """A calling-convention or export macro (CUDART_CB, CUDAAPI, CUFFTAPI) that some branch defines empty (the
    Linux one) and the others only as __stdcall/__cdecl/dllexport/visibility, and that HIP does not define:
    translation drops it (transform kind 'remove')."""
    if name in hip or not _CONVENTION_NAME.search(name):
        return False
    bodies = {h.decl.expansion for h in index.names.get(name, ()) if h.decl.kind == "macro"}
    kinds = {h.decl.kind for h in index.names.get(name, ())}
    return kinds == {"macro"} and "" in bodies and all(_CONVENTION.fullmatch(b) for b in bodies)


def attribute_macro_row(name: str, api: str, header: str) -> Row:
    return Row(
        cuda=name,
        hip="",
        kind="macro",
        api=api,
        hip_status="supported",
        cuda_header=header,
        transform=Transform(kind="remove"),
        source=ATTRIBUTE_MACRO_SOURCE,
        note="calling-convention/export macro, empty on Linux; HIP has none: translation drops it",
    )
