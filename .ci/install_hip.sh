#!/usr/bin/env bash
# Install what `hipify-py validate` needs to compile translated programs for AMD GPUs on a CPU-only
# Debian 12/13 machine. Idempotent: a second run only checks (about 1 s).
#
#  1. Debian's hipcc (ROCm 5.2 on Debian 12, 5.7 on Debian 13) and the HIP library -dev packages that
#     Debian packages; g++ and TBB (libtbb-dev), with which `validate --run` builds translations against
#     HIP-CPU where there is no GPU (the tests take HIP-CPU from ../shared/tools/hip-cpu.tar.xz beside the
#     clone). librocsparse's runtime library is ~1.3 GB of GPU kernels, so the sparse packages are fetched
#     with `apt-get download` and only their headers are extracted (compiling with -c needs no libraries).
#  2. Unless HIPIFY_ROCM_CHROOT=0: a chroot per ROCm release the mapping table is generated for, each with
#     that release's hipcc, make, CMake, g++ and the hipBLAS/hipFFT/hipCUB/... headers, CMake packages and
#     shared objects (link stubs for the libraries whose GPU kernels weigh gigabytes), so that translated
#     programs build with their own Makefiles and CMakeLists.txt (`hipify-py validate --setup --rocm X.Y`):
#     ROCm 6.4 from Debian sid (~3 min, ~1.6 GB), ROCm 7.2 from Debian experimental over sid (~4 min,
#     ~1.8 GB; HIPIFY_ROCM7_CHROOT=0 skips it). Translations target a current ROCm (per-library include
#     folders, *_sync warp builtins, 7.x APIs), which Debian 12's 5.2 cannot compile, and Debian packages no
#     hipBLAS/hipFFT/hipCUB at all. `hipify-py validate` uses the chroots when they exist (the newest first;
#     --rocm X.Y picks one), and the tests compile the corpus with each, translated for its release.
#
# Env: HIPIFY_ROCM_CHROOT=0|1 (default 1), HIPIFY_ROCM7_CHROOT=0|1 (default 1), ROCM_CHROOT (6.4's chroot
#      dir, default /tmp/rocm-sid), ROCM7_CHROOT (7.2's, default /tmp/rocm7-sid), SELFTEST=0 (skip the
#      chroots' test compiles).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
export DEBIAN_FRONTEND=noninteractive
T0=$(date +%s)
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"

# -- 1. Debian hipcc + library headers ------------------------------------------------------------
FULL=(hipcc libhiprand-dev librocrand-dev librocprim-dev g++ libtbb-dev)
HEADERS_ONLY=(libhipsparse-dev librocsparse-dev)
missing=()
for p in "${FULL[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
hdr_stamp=/usr/include/.hipify-headers-only
if [ "${#missing[@]}" -gt 0 ] || [ "$(cat "$hdr_stamp" 2>/dev/null)" != "${HEADERS_ONLY[*]}" ]; then
  $SUDO apt-get update -qq
fi
if [ "${#missing[@]}" -gt 0 ]; then
  # Some packages may not exist on every release; install those that do.
  avail=()
  for p in "${missing[@]}"; do apt-cache show "$p" >/dev/null 2>&1 && avail+=("$p") || echo "not packaged here: $p" >&2; done
  [ "${#avail[@]}" -gt 0 ] && $SUDO apt-get install -y -qq --no-install-recommends "${avail[@]}" >/dev/null
fi
if [ "$(cat "$hdr_stamp" 2>/dev/null)" != "${HEADERS_ONLY[*]}" ]; then
  dl="$(mktemp -d)"
  for p in "${HEADERS_ONLY[@]}"; do
    if (cd "$dl" && apt-get download -qq "$p" >/dev/null 2>&1); then :; else echo "not packaged here: $p" >&2; fi
  done
  for deb in "$dl"/*.deb; do
    [ -e "$deb" ] || continue
    # headers only: usr/include/** (no GPU kernel libraries)
    dpkg-deb --fsys-tarfile "$deb" | $SUDO tar -x -C / ./usr/include 2>/dev/null || true
  done
  rm -rf "$dl"
  echo "${HEADERS_ONLY[*]}" | $SUDO tee "$hdr_stamp" >/dev/null
fi
echo "debian hipcc: $(HIP_PLATFORM=amd hipcc --version 2>/dev/null | sed -n 's/^HIP version: //p') ($(( $(date +%s) - T0 )) s)" >&2

# -- 2. ROCm 6.4 and 7.2 chroots: the project's own builder, `hipify-py validate --setup --rocm X.Y` ---
if [ "${HIPIFY_ROCM_CHROOT:-1}" != 0 ]; then
  if ! command -v debootstrap >/dev/null; then
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
  fi
  # The builder ships in the package: install it first when this checkout is not installed yet.
  (cd "$repo" && python3 -c 'import hipify.validate.cli' 2>/dev/null) || python3 -m pip install -q -e "$repo"
  setup() {  # release, chroot folder
    local T1 setup_args=(--rocm "$1" --rocm-chroot "$2")
    T1=$(date +%s)
    [ "${SELFTEST:-1}" = 0 ] && setup_args+=(--no-selftest)
    (cd "$repo" && $SUDO python3 -m hipify validate --setup "${setup_args[@]}")
    echo "ROCm $1 chroot: $(( $(date +%s) - T1 )) s" >&2
  }
  setup 6.4 "${ROCM_CHROOT:-/tmp/rocm-sid}"
  if [ "${HIPIFY_ROCM7_CHROOT:-1}" != 0 ]; then setup 7.2 "${ROCM7_CHROOT:-/tmp/rocm7-sid}"; fi
fi
echo "install_hip: $(( $(date +%s) - T0 )) s total" >&2
