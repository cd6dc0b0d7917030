"""The HTML porting report: one self-contained file (inline CSS, SVG and a little JS; nothing fetched).

Summary cards, charts (work by kind, files with the most work left, most used CUDA APIs),
sortable and filterable tables of the work by kind and of the files, a section per file with
the source line of each finding, and a glossary of the codes (the text of docs/diagnostics.md).
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Iterable, Sequence

from ..knowledge.codes import CODES
from ..model import Diagnostic
from ..version import __version__
from .report import Report, WorkItem
from .work import EFFORT_RULE, EFFORTS, WORK_KINDS, WORK_TITLES, work_kind

COLORS = {
    "translated": "#2e7d32",
    "flag": "#ef6c00",
    "hand": "#c62828",
    "review": "#1565c0",
    "environment": "#6d4c41",
}
EFFORT_COLORS = {"none": "#2e7d32", "low": "#1565c0", "medium": "#ef6c00", "high": "#c62828"}
TOP = 10  # bars per chart

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1b1b1b;background:#f6f7f9}
header{background:#263238;color:#fff;padding:1em 2em}header h1{margin:0;font-size:1.5em}
header p{margin:.3em 0 0;color:#cfd8dc}main{padding:1em 2em}
.cards{display:flex;flex-wrap:wrap;gap:.8em;margin:1em 0}
.card{background:#fff;border-radius:8px;padding:.7em 1em;min-width:9em;box-shadow:0 1px 3px #0002}
.card .value{font-size:1.7em;font-weight:600}.card .label{color:#555;font-size:.85em}
.charts{display:flex;flex-wrap:wrap;gap:1em}.chart{background:#fff;border-radius:8px;padding:.6em;box-shadow:0 1px 3px #0002}
section{background:#fff;border-radius:8px;padding:.8em 1.2em;margin:1em 0;box-shadow:0 1px 3px #0002}
h2{font-size:1.15em;margin:.2em 0 .6em}h2 .count{color:#777;font-weight:normal}
table{border-collapse:collapse;width:100%;font-size:.9em}th,td{border-bottom:1px solid #e3e3e3;padding:.3em .5em;text-align:left;vertical-align:top}
th{background:#eceff1;cursor:pointer;user-select:none;white-space:nowrap}th.sorted-asc::after{content:" \\25B2"}th.sorted-desc::after{content:" \\25BC"}
td{overflow-wrap:anywhere}td code{white-space:nowrap}td.num,th.num{text-align:right}input.filter{margin:.2em 0 .5em;padding:.3em .5em;width:22em;max-width:100%}
.badge{display:inline-block;padding:0 .5em;border-radius:1em;color:#fff;font-size:.8em}
pre.src{margin:.2em 0 .6em;background:#263238;color:#eceff1;padding:.3em .6em;border-radius:4px;overflow-x:auto}
.finding .msg{font-family:ui-monospace,monospace;font-size:.85em}.rule{color:#555;font-size:.85em}
details{margin:.3em 0}summary{cursor:pointer;font-weight:600}code{font-family:ui-monospace,monospace}
.sev-error{color:#c62828}.sev-warning{color:#ef6c00}.sev-info{color:#1565c0}
"""

# Sort a table by the clicked header (numbers as numbers); filter its rows by the text typed.
# A link can carry a view: #filter:TABLE=TEXT&sort:TABLE=COLUMN (COLUMNd for descending).
SCRIPT = """
document.querySelectorAll('table.sortable th').forEach(function(th){
  th.addEventListener('click',function(){
    var table=th.closest('table'),body=table.tBodies[0],i=th.cellIndex;
    var asc=!th.classList.contains('sorted-asc');
    table.querySelectorAll('th').forEach(function(h){h.classList.remove('sorted-asc','sorted-desc')});
    th.classList.add(asc?'sorted-asc':'sorted-desc');
    var rows=Array.prototype.slice.call(body.rows);
    rows.sort(function(a,b){
      var x=a.cells[i].getAttribute('data-sort')||a.cells[i].textContent,
          y=b.cells[i].getAttribute('data-sort')||b.cells[i].textContent;
      var nx=parseFloat(x),ny=parseFloat(y);
      var c=(!isNaN(nx)&&!isNaN(ny))?nx-ny:x.localeCompare(y);
      return asc?c:-c;});
    rows.forEach(function(r){body.appendChild(r)});});});
document.querySelectorAll('input.filter').forEach(function(input){
  input.addEventListener('input',function(){
    var q=input.value.toLowerCase(),table=document.getElementById(input.getAttribute('data-table'));
    Array.prototype.forEach.call(table.tBodies[0].rows,function(r){
      r.style.display=r.textContent.toLowerCase().indexOf(q)>=0?'':'none';});});});
location.hash.slice(1).split('&').forEach(function(part){
  var kv=part.split('='),key=decodeURIComponent(kv[0]),value=decodeURIComponent(kv[1]||'');
  if(key.indexOf('filter:')===0){
    var input=document.querySelector('input[data-table="'+key.slice(7)+'"]');
    if(input){input.value=value;input.dispatchEvent(new Event('input'));}}
  else if(key.indexOf('sort:')===0){
    var table=document.getElementById(key.slice(5)),th=table&&table.tHead.rows[0].cells[parseInt(value,10)];
    if(th){th.click();if(/d$/.test(value))th.click();}}});
"""


def _e(text: object) -> str:
    return html.escape(str(text))


def _anchor(path: str) -> str:
    return "file-" + "".join(ch if ch.isalnum() else "-" for ch in path)


def _code_link(code: str) -> str:
    return f'<a href="#code-{_e(code)}"><code>{_e(code)}</code></a>'


def bar_chart(chart_id: str, title: str, bars: Sequence[tuple[str, int, str]], width: int = 410) -> str:
    """A horizontal bar chart as inline SVG: (label, value, color) per bar."""
    row, label_w = 22, 200
    height = 28 + row * max(1, len(bars))
    top = max((v for _, v, _ in bars), default=0) or 1
    parts = [
        f'<svg id="{chart_id}" class="chart" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{_e(title)}</title>",
        f'<text x="4" y="16" font-size="13" font-weight="600">{_e(title)}</text>',
    ]
    if not bars:
        parts.append('<text x="4" y="40" font-size="12" fill="#777">nothing to show</text>')
    for i, (label, value, color) in enumerate(bars):
        y = 26 + i * row
        w = max(1, round((width - label_w - 50) * value / top))
        shown = label if len(label) <= 30 else "…" + label[-29:]
        parts.append(
            f'<g class="bar"><text x="{label_w - 6}" y="{y + 14}" font-size="11" text-anchor="end">{_e(shown)}</text>'
            f'<rect x="{label_w}" y="{y + 3}" width="{w}" height="15" fill="{color}" rx="2"><title>{_e(label)}: {value}</title></rect>'
            f'<text x="{label_w + w + 4}" y="{y + 14}" font-size="11">{value}</text></g>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _cards(report: Report, items: dict[str, list[WorkItem]]) -> str:
    efforts = report.efforts()
    minimum = report.minimum_rocm() or "any"
    target = ".".join(map(str, report.options.rocm_version))
    cards = [
        ("files", report.files, "files scanned"),
        ("changed", report.changed, "files translated"),
        ("converted", sum(report.converted.values()), "CUDA references translated"),
        ("hand", len(items["hand"]), "APIs needing hand work"),
        ("flag", len(items["flag"]), "APIs needing a flag"),
        ("environment", len(items["environment"]), "environment findings"),
        ("effort-high", efforts["high"], "files of high effort"),
        ("minimum-rocm", minimum, f"minimum ROCm (target {target})"),
    ]
    if report.validation:
        passed = sum(1 for v in report.validation if str(v.get("result", "")).upper() == "PASS")
        cards.append(("compiled", f"{passed}/{len(report.validation)}", "programs compiled (validate)"))
    if report.validation_runs:
        ran = [v for v in report.validation_runs if str(v.get("result", "")) != "NOT RUN"]
        passed = sum(1 for v in ran if str(v.get("result", "")).upper() in ("PASS", "MATCH"))
        cards.append(("ran", f"{passed}/{len(ran)}", "runs passed (validate --run)"))
    if report.compat_header[0]:
        cards.append(("compat", len(report.compat_header[1]), f"entries in {report.compat_header[0]}"))
    body = "".join(
        f'<div class="card" id="card-{key}"><div class="value">{_e(value)}</div><div class="label">{_e(label)}</div></div>'
        for key, value, label in cards
    )
    return f'<div class="cards" id="cards">{body}</div>'


def _charts(report: Report, items: dict[str, list[WorkItem]]) -> str:
    by_kind = [(WORK_TITLES[k], sum(i.count for i in items[k]), COLORS[k]) for k in WORK_KINDS]
    left = Counter[str]()
    for entry in report.per_file:
        work = entry.get("work")
        if isinstance(work, dict):
            left[str(entry["path"])] = sum(int(work.get(k, 0)) for k in ("hand", "flag", "environment", "review"))
    top_files = [(path, n, COLORS["hand"]) for path, n in left.most_common(TOP) if n]
    apis: list[tuple[str, int, str]] = []
    for kind in ("translated", "flag", "hand", "review"):
        apis += [(i.subject, i.count, COLORS[kind]) for i in items[kind] if kind != "review" or i.code == "HPY001"]
    apis.sort(key=lambda bar: (-bar[1], bar[0]))
    return (
        '<div class="charts">'
        + bar_chart("chart-work", "References by kind of work", by_kind)
        + bar_chart("chart-files", "Files with the most work left", top_files)
        + bar_chart("chart-apis", "Most used CUDA APIs (colour: kind of work)", apis[:TOP])
        + "</div>"
    )


Cell = str | tuple[str, str]  # HTML, or (HTML, the key the column sorts by)


def _td(cell: Cell, numeric: bool) -> str:
    body, key = cell if isinstance(cell, tuple) else (cell, "")
    attrs = (' class="num"' if numeric else "") + (f' data-sort="{_e(key)}"' if key else "")
    return f"<td{attrs}>{body}</td>"


def _table(table_id: str, headers: Sequence[str], rows: Iterable[Sequence[Cell]], numeric: Iterable[int] = ()) -> str:
    nums = set(numeric)
    head = "".join(f'<th class="num">{_e(h)}</th>' if i in nums else f"<th>{_e(h)}</th>" for i, h in enumerate(headers))
    body = "".join("<tr>" + "".join(_td(c, i in nums) for i, c in enumerate(r)) + "</tr>" for r in rows)
    return (
        f'<input class="filter" type="search" placeholder="filter…" data-table="{table_id}" aria-label="filter">'
        f'<table class="sortable" id="{table_id}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
    )


def _files_cell(files: Sequence[str]) -> str:
    links = [f'<a href="#{_anchor(f)}">{_e(f)}</a>' for f in files[:3]]
    more = f" and {len(files) - 3} more" if len(files) > 3 else ""
    return ", ".join(links) + more


def _work_sections(items: dict[str, list[WorkItem]]) -> str:
    out = []
    specs = {
        "flag": (("CUDA API", "flag", "references", "files", "code"), lambda i: (f"<code>{_e(i.subject)}</code>", f"<code>{_e(i.flag)}</code>", str(i.count), _files_cell(i.files), _code_link(i.code))),
        "hand": (("CUDA API", "references", "hint: what to do, what HIP offers", "files", "code"), lambda i: (f"<code>{_e(i.subject)}</code>", str(i.count), _e(i.hint), _files_cell(i.files), _code_link(i.code))),
        "review": (("what", "references", "why", "files", "code"), lambda i: (f"<code>{_e(i.subject)}</code>", str(i.count), _e(i.hint), _files_cell(i.files), _code_link(i.code))),
        "environment": (("finding", "count", "what to do", "files", "code"), lambda i: (_e(i.subject), str(i.count), _e(i.hint), _files_cell(i.files), _code_link(i.code))),
        "translated": (("CUDA API", "references", "files"), lambda i: (f"<code>{_e(i.subject)}</code>", str(i.count), _files_cell(i.files))),
    }  # fmt: skip
    for kind in ("hand", "flag", "environment", "review", "translated"):
        headers, cells = specs[kind]
        listed = items[kind]
        table = _table(f"work-{kind}", headers, (cells(i) for i in listed), numeric=(1,) if kind != "flag" else (2,))
        body = table if listed else "<p>None.</p>"
        out.append(
            f'<section id="section-{kind}"><h2>{_e(WORK_TITLES[kind])} '
            f'<span class="count">({len(listed)} distinct, {sum(i.count for i in listed)} references)</span></h2>{body}</section>'
        )
    return "".join(out)


def _files_section(report: Report) -> str:
    rows: list[tuple[Cell, ...]] = []
    for entry in report.per_file:
        path = str(entry["path"])
        work = entry.get("work") if isinstance(entry.get("work"), dict) else {}
        assert isinstance(work, dict)
        eff = str(entry.get("effort", ""))
        badge = f'<span class="badge" style="background:{EFFORT_COLORS.get(eff, "#777")}">{_e(eff)}</span>'
        rank = EFFORTS.index(eff) if eff in EFFORTS else 0  # sorts none < low < medium < high
        rows.append(
            (
                f'<a href="#{_anchor(path)}">{_e(path)}</a>',
                (badge, str(rank)),
                str(work.get("translated", 0)),
                str(work.get("hand", 0)),
                str(work.get("flag", 0)),
                str(work.get("review", 0)),
                str(work.get("environment", 0)),
                _e(entry.get("engine", entry.get("error", ""))),
            )
        )
    table = _table(
        "files",
        ("file", "effort", "translated", "hand", "flag", "review", "environment", "engine"),
        rows,
        numeric=(2, 3, 4, 5, 6),
    )
    return (
        f'<section id="section-files"><h2>Files <span class="count">({len(report.per_file)})</span></h2>'
        f'<p class="rule">Effort rule — {_e(EFFORT_RULE)}</p>{table}</section>'
    )


def _per_file(report: Report) -> str:
    by_file: dict[str, list[Diagnostic]] = {}
    for diag in report.diagnostics:
        by_file.setdefault(diag.path, []).append(diag)
    efforts = {str(e["path"]): str(e.get("effort", "")) for e in report.per_file}
    parts = []
    for entry in report.per_file:
        path = str(entry["path"])
        diags = by_file.get(path, [])
        converted = report.converted_in.get(path, Counter())
        if not diags and not converted:
            continue
        eff = efforts.get(path, "")
        findings = []
        for d in sorted(diags, key=lambda d: (d.line, d.col, d.code)):
            source = report.source_line(d)
            src = f'<pre class="src"><code>{_e(source)}</code></pre>' if source else ""
            findings.append(
                f'<div class="finding"><span class="msg">{_e(d.line)}:{_e(d.col)} '
                f'<span class="sev-{d.severity.value}">{_e(d.severity.word)}</span> '
                f"{_e(WORK_TITLES[work_kind(d.code)].lower())}: {_e(d.message)}</span> {_code_link(d.code)}{src}</div>"
            )
        translated = ", ".join(f"<code>{_e(n)}</code> ({c})" for n, c in converted.most_common(12))
        more = f" and {len(converted) - 12} more" if len(converted) > 12 else ""
        parts.append(
            f'<details id="{_anchor(path)}" class="file"{" open" if eff in ("medium", "high") else ""}>'
            f'<summary>{_e(path)} <span class="badge" style="background:{EFFORT_COLORS.get(eff, "#777")}">{_e(eff)}</span> '
            f'<span class="count">{len(diags)} findings</span></summary>'
            + (f'<p class="rule">translated: {translated}{more}</p>' if translated else "")
            + "".join(findings)
            + "</details>"
        )
    return f'<section id="section-per-file"><h2>Per file</h2>{"".join(parts) or "<p>No findings.</p>"}</section>'


def _validation(report: Report) -> str:
    if not report.validation and not report.validation_runs:
        return ""
    rows = [tuple(_e(c) for c in row) for row in report.validation_rows()]
    table = _table("validation", ("program", "engine", "arch", "result", "first error (CUDA line) / reason"), rows)
    section = f'<section id="section-validation"><h2>Compile results (hipify-py validate)</h2>{table}</section>'
    if not report.validation:
        section = ""
    if report.validation_runs:
        runs = [tuple(_e(c) for c in row) for row in report.run_rows()]
        heads = ("program", "engine", "compiled", "ran on", "result", "reason")
        section += (
            '<section id="section-validation-runs"><h2>Run results (hipify-py validate --run)</h2>'
            f"{_table('validation-runs', heads, runs)}</section>"
        )
    return section


def _compat(report: Report) -> str:
    path, entries = report.compat_header
    if not path:
        return ""
    listed = ", ".join(f"<code>{_e(e)}</code>" for e in entries)
    return (
        f'<section id="section-compat"><h2>Compatibility header</h2><p><code>{_e(path)}</code> provides what ROCm '
        f"lacks and the translation uses: {listed} ({_code_link('HPY012')}).</p></section>"
    )


def _glossary(report: Report) -> str:
    used = sorted(
        {d.code for d in report.diagnostics} | {"HPY001"} | ({"HPY012"} if report.compat_header[0] else set())
    )
    entries = "".join(
        f'<div id="code-{c.code}"><h3><code>{c.code}</code> {_e(c.name)} <span class="count">({_e(c.kind)})</span></h3>'
        f"<p><b>What:</b> {_e(c.what)}<br><b>Why:</b> {_e(c.why)}<br><b>What to do:</b> {_e(c.todo)}</p></div>"
        for c in (CODES[code] for code in used if code in CODES)
    )
    return (
        '<section id="section-codes"><h2>Codes</h2><p class="rule">The codes of this report, as documented in '
        f"docs/diagnostics.md (generated from the same table, <code>hipify/knowledge/codes.py</code>).</p>{entries}</section>"
    )


def render_html(report: Report) -> str:
    items = report.work_items()
    target = ".".join(map(str, report.options.rocm_version))
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>hipify-py porting report</title><style>{CSS}</style></head>
<body><header><h1>hipify-py porting report</h1>
<p>hipify-py {_e(__version__)} · target ROCm {_e(target)} · {report.files} files · minimum ROCm the port needs:
<b id="minimum-rocm">{_e(report.minimum_rocm() or "any")}</b></p></header>
<main>{_cards(report, items)}{_charts(report, items)}
{_work_sections(items)}{_validation(report)}{_compat(report)}{_files_section(report)}{_per_file(report)}{_glossary(report)}
</main><script>{SCRIPT}</script></body></html>
"""
