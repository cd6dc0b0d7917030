"""The parts of a HIP library's ``.deb`` that building against it needs: headers, CMake package files and
link stubs of its shared objects, without the GPU kernels that make up most of its size.

rocBLAS, rocSOLVER, rocSPARSE and hipBLASLt weigh ~8 GB installed: their kernels are separate files
(``rocblas/library/*.co``, ``*.hsaco``, ``*.dat``) or sections embedded in the shared object itself
(``librocsolver.so.0`` alone is 1.9 GB). Compiling needs the headers; ``find_package(hipblas)`` needs the
CMake files (and the small static libraries their targets name); linking ``-lhipblas`` needs each shared object's dynamic symbols, its SONAME and its
DT_NEEDED entries (the linker follows them to librocblas.so.4, librocsolver.so.0, ...), not its code.
So shared objects are replaced by link stubs made by ``llvm-ifs`` (LLVM's interface-stub tool, shipped
with the chroot's clang): an ELF with the same dynamic symbol table, SONAME and needed libraries, a few
hundred kilobytes where the library was gigabytes. A program linked against a stub links as it would
against the real library; running it needs the real ROCm libraries, which a GPU machine has.
"""

from __future__ import annotations

import re
import tarfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

HEADER, CMAKE, SHARED_OBJECT, STATIC_LIBRARY = "header", "cmake", "shared-object", "static-library"

# usr/lib/<multiarch triplet>/..., or usr/lib/... on distributions without multiarch folders
_LIB_DIR = r"usr/lib(?:/[a-z0-9_]+-linux-gnu[a-z]*)?"
_CMAKE = re.compile(rf"^(?:{_LIB_DIR}|usr/share)/cmake/.+")
# directly in the library folder, never below it (rocblas/library/... holds the kernels)
_SHARED_OBJECT = re.compile(rf"^{_LIB_DIR}/lib[^/]+\.so(?:\.[0-9][^/]*)?$")
# host code that a package's CMake targets name (hipBLASLt's roc::origami is liborigami.a): kept whole
_STATIC_LIBRARY = re.compile(rf"^{_LIB_DIR}/lib[^/]+\.a$")


def member_role(name: str) -> str | None:
    """What a path of a .deb's data archive is for building, or None when building does not need it."""
    path = name[2:] if name.startswith("./") else name.lstrip("/")
    if path.startswith("usr/include/"):
        return HEADER
    if _CMAKE.match(path):
        return CMAKE
    if _SHARED_OBJECT.match(path):
        return SHARED_OBJECT
    if _STATIC_LIBRARY.match(path):
        return STATIC_LIBRARY
    return None


@dataclass(frozen=True)
class Extracted:
    """What one .deb contributed: paths relative to the root, shared objects made into stubs."""

    files: tuple[str, ...] = ()
    links: tuple[str, ...] = ()
    stubs: tuple[str, ...] = ()
    kept_existing: tuple[str, ...] = ()  # shared objects already there from an installed package: untouched


# (path of the shared object written under the root) -> replace it by its link stub
MakeStub = Callable[[Path], None]


def extract_build_parts(
    data_tar: IO[bytes], root: Path, make_stub: MakeStub, ours: frozenset[str] = frozenset()
) -> Extracted:
    """Extract from a .deb's data archive (``dpkg-deb --fsys-tarfile`` output, read as a stream) the members
    :func:`member_role` keeps, under ``root``. A shared object is written, then replaced by its stub.

    A file already under ``root`` that we did not write earlier (``ours``: root-relative paths) belongs to
    an installed package and is left alone: a real library is never overwritten by a stub."""
    files: list[str] = []
    links: list[str] = []
    stubs: list[str] = []
    kept: list[str] = []
    root = root.resolve()
    with tarfile.open(fileobj=data_tar, mode="r|") as tar:
        for member in tar:
            role = member_role(member.name)
            if role is None or member.isdir():
                continue
            rel = member.name[2:] if member.name.startswith("./") else member.name.lstrip("/")
            dest = root / rel
            if not dest.resolve().is_relative_to(root) and not dest.is_symlink():
                continue  # a path leaving the root (never in a Debian package; refused anyway)
            if role == SHARED_OBJECT and (dest.exists() or dest.is_symlink()) and rel not in ours:
                kept.append(rel)
                continue
            dest.parent.mkdir(parents=True, exist_ok=True)
            if member.issym():
                if dest.is_symlink() or dest.exists():
                    dest.unlink()
                dest.symlink_to(member.linkname)
                links.append(rel)
            elif member.isfile():
                source = tar.extractfile(member)
                if source is None:
                    continue
                tmp = dest.with_name(dest.name + ".hipify-part")
                with tmp.open("wb") as out:
                    while block := source.read(1 << 20):
                        out.write(block)
                tmp.chmod(member.mode & 0o777)
                if role == SHARED_OBJECT:
                    make_stub(tmp)
                    stubs.append(rel)
                else:
                    files.append(rel)
                tmp.replace(dest)
    return Extracted(tuple(files), tuple(links), tuple(stubs), tuple(kept))


def parse_simulated_installs(apt_output: str) -> list[str]:
    """Package names from ``apt-get install --simulate`` output (its ``Inst NAME ...`` lines), in order."""
    return [m.group(1) for m in re.finditer(r"^Inst (\S+)", apt_output, re.MULTILINE)]
