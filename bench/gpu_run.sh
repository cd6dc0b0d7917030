#!/usr/bin/env bash
# Run what hipify-py translates on a lent NVIDIA GPU (HIP's NVIDIA platform), with the verdicts the CPU runs give:
#  1. the corpus: each program built with nvcc and its translation (both engines) through HIP's NVIDIA headers,
#     run, and compared with expected_output.txt (`validate --run --run-on nvidia`);
#  2. HeCBench, when its sources are here (argument 1, or ../shared/realcode/hecbench-dev.tar.xz beside the clone):
#     each benchmark's translation and its hand-written HIP port, run with the Makefile's run line on the GPU; a
#     run passes on its exit status and the PASS/FAIL it prints.
# Needs nvcc, nvidia-smi and HIP's NVIDIA headers (Debian's libamdhip64-dev: /usr/include/hip/nvidia_detail, or
# $HIPIFY_HIP_NVIDIA_INCLUDE). Writes under $OUT (default ./gpu-run): corpus.json/txt, hecbench.json/md/txt.
#
#   bench/gpu_run.sh [HECBENCH_SRC [N]]     (N: the first N benchmarks by name, default 40)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-run}
mkdir -p "$OUT"
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}

nvidia-smi -L || { echo "gpu_run: no NVIDIA GPU here (nvidia-smi -L failed)"; exit 2; }
nvcc --version | tail -1 || { echo "gpu_run: nvcc not found"; exit 2; }

echo "== corpus, both engines, original (nvcc) vs translation (HIP on NVIDIA)"
timeout 3000 python3 -m hipify.validate --run --run-on nvidia --no-amd --json "$OUT/corpus.json" \
  >"$OUT/corpus.txt" 2>&1
echo "corpus: exit $? (results in $OUT/corpus.txt)"
tail -3 "$OUT/corpus.txt"

src=${1:-}
first=${2:-40}
if [ -z "$src" ] && [ -f ../shared/realcode/hecbench-dev.tar.xz ]; then
  mkdir -p "$OUT/rc" && tar -xJf ../shared/realcode/hecbench-dev.tar.xz -C "$OUT/rc"
  src=$(find "$OUT/rc" -maxdepth 3 -type d -name src | head -1)
fi
if [ -z "$src" ] || [ ! -d "$src" ]; then
  echo "HeCBench: not run (no sources: pass HeCBench's src/ folder, or put hecbench-dev.tar.xz in ../shared/realcode)"
  exit 0
fi
echo "== HeCBench in $src: translation vs hand-written port on the GPU, first $first benchmarks"
timeout 3000 python3 bench/cpu_hecbench.py --on nvidia --src "$src" --first "$first" --timeout 120 \
  --json "$OUT/hecbench.json" --markdown "$OUT/hecbench.md" >"$OUT/hecbench.txt" 2>&1
echo "HeCBench: exit $?"
tail -3 "$OUT/hecbench.txt"
