"""``k<<<g, b, s, st>>>(args)`` -> ``hipLaunchKernelGGL(k, dim3(g), dim3(b), s, st, args)``.

Only with ``--hip-kernel-execution-syntax``; by default the chevrons are kept (HIP
compiles them). The rewrite is made of edits in the *gaps* between the kernel, config and
argument spans, so identifier renames inside those spans never overlap it and the
argument text is copied verbatim.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...facts import Launch
from ...model import Diagnostic, Edit, Severity
from ..context import Context
from ..registry import Finding, register

LAUNCHER = "hipLaunchKernelGGL"
TEMPLATE_WRAPPER = "HIP_KERNEL_NAME"


@register("launches")
def launches(ctx: Context) -> Iterator[Finding]:
    if not ctx.options.hip_kernel_syntax:
        return
    for launch in ctx.facts.launches:
        if not 2 <= len(launch.config) <= 4 or not ctx.allowed(launch.start, launch.region):
            continue
        if ctx.suppression.covers(launch.end - 1):
            continue
        if _ends_in_line_comment(ctx.text, launch):
            yield Diagnostic(
                "HPY109",
                "kernel launch left in <<<>>> form: a // comment inside it would swallow the rewritten text",
                offset=launch.start,
                severity=Severity.INFO,
            )
            continue
        yield from launch_edits(ctx.text, launch)


def _ends_in_line_comment(text: str, launch: Launch) -> bool:
    """Does a config or argument span end in a ``//`` comment (text after it would be commented out)?"""
    for start, end in launch.config + launch.args:
        last_line = text[start:end].rsplit("\n", 1)[-1]
        if "//" in last_line:
            return True
    return False


def _dim3(text: str) -> bool:
    return not text.startswith("dim3")


def launch_edits(text: str, launch: Launch) -> list[Edit]:
    """The gap edits for one launch (see module doc); spans never end in a // comment here."""
    code, origin, subject = "HPY004", launch.origin, text[launch.kernel[0] : launch.kernel[1]]
    config = list(launch.config)
    wraps = [_dim3(text[s:e]) if i < 2 else False for i, (s, e) in enumerate(config)]
    edits = [
        Edit(
            launch.kernel[0],
            launch.kernel[0],
            LAUNCHER + "(" + (TEMPLATE_WRAPPER + "(" if launch.template else ""),
            code,
            origin,
            subject,
        )
    ]
    # kernel -> first config: '<<<' becomes ', ' (and opens dim3).
    gap = (")" if launch.template else "") + ", " + ("dim3(" if wraps[0] else "")
    edits.append(Edit(launch.kernel[1], config[0][0], gap, code, origin, subject))
    for i in range(1, len(config)):
        gap = (")" if wraps[i - 1] else "") + ", " + ("dim3(" if wraps[i] else "")
        edits.append(Edit(config[i - 1][1], config[i][0], gap, code, origin, subject))
    tail = ")" if wraps[len(config) - 1] else ""
    tail += ", 0" * (4 - len(config))
    if launch.args:
        # Arguments, and the blanks before ')', are kept verbatim.
        edits.append(Edit(config[-1][1], launch.args[0][0], tail + ", ", code, origin, subject))
    else:
        edits.append(Edit(config[-1][1], launch.rparen, tail, code, origin, subject))
    return edits
