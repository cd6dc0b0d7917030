"""Stable rule and diagnostic codes. docs/diagnostics.md is generated from this table.

Add new codes at the end of their block; never renumber or reuse one. Each code's ``kind``
says what it means for a port (reports and ``--check`` read it from here):

- ``conversion``: an edit that translates a CUDA reference;
- ``support``: an edit that adds what the translation needs (includes, defines, wider masks);
- ``unconverted``: CUDA code left as written (the work that remains);
- ``review``: translated, but worth a look;
- ``engine``: about the translator (fallbacks, parse errors, internal errors);
- ``file``: about an input file (unreadable, binary, skipped).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Code:
    code: str
    name: str
    applicability: str  # "safe" (applied by default), "unsafe" (opt-in), "report" (never edits)
    kind: str  # conversion | support | unconverted | review | engine | file (see the module doc)
    what: str
    why: str
    todo: str


# fmt: off
CODES: dict[str, Code] = {c.code: c for c in (
    # Edits (HPY0xx)
    Code("HPY001", "rename", "safe", "conversion",
         "A CUDA identifier was renamed to its HIP equivalent.",
         "The mapping table pairs the names, verified against HIP's headers.",
         "Nothing."),
    Code("HPY002", "include-rewrite", "safe", "conversion",
         "A CUDA #include was rewritten to the HIP header (or removed as a duplicate).",
         "HIP headers replace CUDA ones; a second include mapping to the same HIP header is redundant.",
         "Nothing."),
    Code("HPY003", "include-insert", "safe", "support",
         "#include <hip/hip_runtime.h> was inserted; for a ROCm 7 target, also #include <cstring> after it where the file calls <string.h>'s functions without including it.",
         "nvcc includes cuda_runtime.h implicitly; hipcc on AMD needs the HIP runtime header explicitly. CUDA's runtime header (and ROCm 6's) brings <string.h>; ROCm 7's does not.",
         "Nothing."),
    Code("HPY004", "kernel-launch", "safe", "conversion",
         "A kernel launch was rewritten to hipLaunchKernelGGL.",
         "Requested with --hip-kernel-execution-syntax.",
         "Nothing."),
    Code("HPY005", "argument-transform", "safe", "conversion",
         "A call's argument was rewritten (e.g. HIP_SYMBOL(sym)).",
         "Some HIP APIs take arguments in another form than CUDA's.",
         "Nothing."),
    Code("HPY006", "warp-sync-define", "safe", "support",
         "A macro the HIP target needs (the table row's hip_requires, or roc_requires for a ROC-side target: e.g. HIP_ENABLE_WARP_SYNC_BUILTINS, ROCM_MATHLIBS_API_USE_HIP_COMPLEX) was defined before the first HIP include.",
         "ROCm 6.2 to 6.4 declare the *_sync warp functions only with HIP_ENABLE_WARP_SYNC_BUILTINS (7.x declares them by default: no definition for a 7.x target); other HIP APIs may need their own macro.",
         "Check lane masks are 64-bit (see HPY107)."),
    Code("HPY007", "include-path", "safe", "support",
         "An #include of a renamed .cu/.cuh file was updated.",
         "The output tree renames files on request; includes must follow.",
         "Nothing."),
    Code("HPY008", "warp-mask-widen", "safe", "support",
         "A full 32-bit lane mask (0xffffffff) of a *_sync warp function was widened to 0xffffffffffffffffULL.",
         "ROCm >= 6.2 static_asserts a 64-bit mask; all lanes of a warp are all lanes of a wavefront.",
         "Nothing; other masks are reported (HPY107)."),
    Code("HPY009", "remove-macro", "safe", "conversion",
         "A CUDA calling-convention macro HIP lacks (e.g. CUDART_CB) was deleted.",
         "It expands to nothing on Linux; HIP does not define it, so leaving it would not compile.",
         "Nothing."),
    Code("HPY010", "disable-unavailable", "safe", "support",
         "Code of a shared header that needs a CUDA API HIP lacks was left out at the finest scope, visibly: the one statement using it (else the body of the function holding it) behind #if defined(HIPIFY_ENABLE_<api>), its #else stopping the program where it is reached with a message naming the API (hipify_unavailable, from the compatibility header); a declaration no smaller unit holds (a parameter or data member of a type HIP lacks) is disabled whole where nothing uses it; a case label on an enumerator HIP does not have is commented out.",
         "Left as written it would not compile, and would break every file that includes the header, though most never reach it. Leaving out the statement keeps the struct, the function's signature and its other members, so every file using them compiles and a program stops only where it reaches what HIP lacks; a case on a value HIP never produces can never be taken.",
         "Nothing, unless the program reaches it: then port it by hand (or give HIP the API) and define HIPIFY_ENABLE_<api>. The report lists each place."),
    Code("HPY011", "duplicate-definition", "safe", "support",
         "A definition whose parameter types became identical to an earlier one's under HIP was disabled (#if 0).",
         "HIP has one type where CUDA has two (hipError_t for cudaError_t and CUresult): both overloads would be one function defined twice.",
         "Nothing: calls go to the first definition, which takes the same HIP type."),
    Code("HPY012", "compat-include", "safe", "support",
         "The compatibility header (hipify_compat.h) is included: it provides small CUDA features ROCm lacks, in HIP (cooperative_groups::reduce, __syncwarp, cache-hinted loads, ...).",
         "Each is a few lines of correct HIP; without them the port does not build. The header holds only the entries the translated files use, each with a note on its semantics.",
         "Nothing; read the notes in hipify_compat.h. --no-compat-header reports these names instead."),
    Code("HPY013", "register-removed", "safe", "conversion",
         "The register storage class was removed.",
         "C++17 removed it; nvcc only warns, hipcc (clang, C++17) rejects it. It has had no effect for decades.",
         "Nothing."),
    Code("HPY014", "builtin-redefinition", "safe", "support",
         "A device function the code defines itself with the parameter types of one HIP's headers define (atomicAdd(double*, double) for old GPUs, atomicMin(float*, float)) was put behind #if !defined(__HIP_PLATFORM_AMD__).",
         "Under HIP for AMD GPUs it would redefine HIP's own, and the file would not compile; HIP's does what the CUDA name says.",
         "Nothing, unless the definition does something else than its name says: then rename it and its calls."),
    # Findings (HPY1xx)
    Code("HPY015", "vector-operator", "safe", "support",
         "A __host__ __device__ operator * or / of two CUDA vectors, or a compound assignment (+=, *=, ...), computing component-wise what HIP's vector types already define, was put behind #if !defined(__HIP_PLATFORM_AMD__).",
         "HIP's vector types define these operators for host and device: with the code's own (helper_math.h), every such expression is ambiguous under HIP and the file does not compile. HIP's computes the same.",
         "Nothing."),
    Code("HPY016", "build-translate", "safe", "conversion",
         "A build file (Makefile, *.mk, CMakeLists.txt, *.cmake) was translated: the CUDA compiler became hipcc, an nvcc option its hipcc form, a CUDA library the HIP one the table maps its family to, a path under the CUDA installation ROCm's, a renamed source its new name.",
         "A translated tree is worth what it builds: the copied build file would still call nvcc and pass its options.",
         "Nothing; HIP_ARCH (make) or CMAKE_HIP_ARCHITECTURES (CMake) picks other AMD GPU targets."),
    Code("HPY018", "device-pointer-arithmetic", "safe", "conversion",
         "Arithmetic on a driver-API device pointer (CUdeviceptr) was kept in bytes: (char*)p + n, (char*&)p += n, (unsigned long long)p % 256.",
         "CUdeviceptr is an integer in CUDA; HIP's hipDeviceptr_t is void*, on which p + n does not compile. A byte pointer adds bytes as the integer did and converts back to void* wherever the result goes.",
         "Nothing. A name the file also declares with another type is left as written (the compiler then names it)."),
    Code("HPY019", "build-condition", "safe", "conversion",
         "A preprocessor condition on the CUDA version or the GPU architecture (__CUDACC_VER_MAJOR__ < 12, CUDART_VERSION >= 11000, __CUDA_ARCH__ >= 600) was decided as a CUDA build decides it: 1, 0, or defined(__HIP_DEVICE_COMPILE__) where the host and device passes differ. The build is the newest one whose branches HIP can compile: the CUDA version the mapping table describes for sm_80, else an older architecture, then an older CUDA version (docs/portability.md).",
         "Under HIP these macros are undefined (0 in #if): fallbacks for old CUDA or old GPUs would be compiled beside HIP's own (redefinitions), and code for newer GPUs that HIP supports skipped. The newest build would take inline-PTX fast paths (cp.async, mma) and CUDA 13 call forms HIP lacks where tiered code keeps a portable path beside them; an older build takes that path. One build per file, so values used in code and macro bodies agree with the branches chosen; tiers one header decides and another file tests (a macro guarding inline PTX, a constant such as CC_AMPERE) count across files.",
         "Nothing; the message says what was decided and for which build. A value used in code or in a macro's body (printf of __CUDA_ARCH__, NO_DEVICE_CODE passing it) becomes that build's number."),
    Code("HPY020", "warp-size-block", "safe", "support",
         "A warp-size constant of 32 (#define WARP_SIZE 32, constexpr int kWarpSize = 32) whose every use in its file sizes a block of hipCUB/rocPRIM block primitives (their BlockSize template argument, the block size of a launch, __launch_bounds__) became 64.",
         "rocPRIM rejects at compile time a block size that is not a multiple of the wavefront (\"BlockSize must be a multiple of hardware warpsize\"), and AMD's CDNA GPUs have 64-lane wavefronts. 64 is a multiple of every AMD wavefront (64 or 32 lanes), and block primitives compute the same results for any such block size.",
         "Nothing, unless other files use the constant for lanes (HPY121 is reported where a file does)."),
    Code("HPY021", "empty-brace-assignment", "safe", "conversion",
         "An assignment of an empty braced list to a half or bfloat16 variable (x = {};) names the type: x = __half2{};.",
         "CUDA's 16-bit float types take x = {} (a reset to zero); HIP's have several assignment operators, so the braced list is ambiguous and the file does not compile. A value-initialized object of the variable's type is the same zero.",
         "Nothing."),
    Code("HPY022", "rocm-version-dependent", "report", "conversion",
         "A CUDA name that another ROCm release the table was generated for translates otherwise: another target (cudaMemAdvise: hipMemAdvise_v2 on ROCm 7.2, hipMemAdvise on 6.4), another macro to define first (the warp *_sync builtins need HIP_ENABLE_WARP_SYNC_BUILTINS on 6.x), or a target only one release has (hipblasSetWorkspace, since 7.x). A note; the report lists these lines per file.",
         "The table holds each release's targets, verified against that release's headers; the translation writes the target ROCm's (--rocm, default the newest). A port that must build with more than one release has to know which lines depend on it.",
         "Nothing for the target ROCm. To build with another release too, translate for it (--rocm X.Y) or keep both forms behind #if HIP_VERSION_MAJOR >= 7; the report's minimum ROCm says which release the translation needs."),
    Code("HPY023", "launch-chevrons", "safe", "conversion",
         "A kernel launch written with blanks inside its chevrons (k << < g, b >> > (x)) was respelled <<< and >>>.",
         "nvcc's front end reads the spaced form as a launch; clang reads << < as a shift followed by a comparison and rejects the line.",
         "Nothing."),
    Code("HPY025", "inline-ptx-translated", "safe", "conversion",
         "An inline PTX statement of one instruction that HIP has exactly was replaced by the HIP call: red.global.add (an atomic add whose result is unused) by atomicAdd on the asm's operands, activemask.b32 by __ballot(1) (HIP's __activemask()), reads of %laneid, %clock and %clock64 by __lane_id(), clock() and clock64().",
         "AMD GPUs do not run PTX; for these instructions HIP's builtin does the same thing, so no hand work is needed.",
         "Nothing. On wave64 GPUs the mask has 64 lanes: a 32-bit variable keeps only the first 32 (HPY107 and HPY121 say where lane masks are narrow)."),
    Code("HPY024", "host-only-pragma", "safe", "support",
         "A #pragma weak (a weak symbol or an alias of a host function) was kept out of the GPU compilation pass: wrapped in #if !defined(__HIP_DEVICE_COMPILE__).",
         "hipcc compiles a .hip file twice, for the host and for the GPU; clang's device pass rejects an alias to a function it does not emit for the GPU (a host function), where nvcc hands such pragmas to the host compiler only.",
         "Nothing."),
    Code("HPY027", "unused-header-removed", "safe", "support",
         "An #include of a CUDA header HIP has no counterpart of (mma.h, cuda_pipeline.h, ...) in a compiled file that uses no name the header declares was turned into a comment.",
         "Left as written, the include alone stops the compile (the file is not found under HIP) though nothing of it is needed; the table records what each such header declares (its own names, those of the headers it includes that HIP lacks too, C++ names by their outermost namespace). In a header the include stays: the files including it may use the names.",
         "Nothing."),
    Code("HPY026", "dim3-from-uint3", "safe", "conversion",
         "make_uint3(x, y, z) going straight into a dim3 (a launch's grid or block, the initializer of or an assignment to a name declared dim3) was written dim3(x, y, z).",
         "CUDA's dim3 converts from uint3; HIP's takes the three components only, so the CUDA form does not compile. The components are the same, and so is the value.",
         "Nothing. A uint3 variable passed as a dim3 is left as written: give dim3 its components (dim3(u.x, u.y, u.z))."),
    Code("HPY028", "handle-integer-arithmetic", "safe", "conversion",
         "Integer arithmetic on a texture or surface object handle (cudaTextureObject_t, cudaSurfaceObject_t) was kept on its integer value: (unsigned long long)tex % n, (int)(unsigned long long)tex, table[(unsigned long long)tex], a - b of two handles on both integers, and tex + i as (hipTextureObject_t)((unsigned long long)tex + i) where the result is used as a handle.",
         "CUDA's handles are unsigned long long; HIP's are pointers to incomplete structs, on which tex + i, tex % n, (int)tex, a subscript or tex == n do not compile. The integer keeps CUDA's value; a sum used as a handle converts back to HIP's type.",
         "Nothing. tex == 0u, tex != 0 and comparisons of two handles compile as written and are left alone; a name the file also declares with another type is left as written (the compiler then names it)."),
    Code("HPY101", "unsupported", "report", "unconverted",
         "A CUDA API has no HIP equivalent and was left as written.",
         "HIP does not provide it (the table row says unsupported).",
         "Rewrite this code by hand or guard it for CUDA only."),
    Code("HPY102", "deprecated", "safe", "review",
         "The CUDA name was translated to its HIP equivalent, which HIP marks deprecated.",
         "HIP still declares it, so the translation compiles; leaving the CUDA name would not. Deprecated APIs may be removed in a later ROCm.",
         "Plan to move to the API HIP recommends instead (see HIP's documentation for the function)."),
    Code("HPY103", "experimental", "report", "unconverted",
         "The HIP equivalent is experimental; not rewritten without --experimental.",
         "Experimental HIP APIs may change.",
         "Pass --experimental to translate it."),
    Code("HPY104", "unknown-cuda-name", "report", "unconverted",
         "An identifier looks like a CUDA API but is not in the mapping table.",
         "It may be a newer CUDA API, a typo, or a user name in CUDA's style.",
         "Check it; rename your own symbol or port by hand."),
    Code("HPY105", "removed", "report", "unconverted",
         "The HIP equivalent was removed from HIP; the CUDA name was left as written.",
         "Current ROCm does not declare it.",
         "Port by hand."),
    Code("HPY106", "newer-than-target", "report", "unconverted",
         "The HIP equivalent appeared after the target ROCm version.",
         "Emitting it would not compile on the ROCm you target (--rocm).",
         "Raise --rocm, or port by hand."),
    Code("HPY107", "warp-mask-width", "report", "review",
         "A *_sync warp function takes a lane mask: HIP masks are 64-bit.",
         "AMD wavefronts have 64 lanes; 32-bit masks such as 0xffffffff cover half of them.",
         "Use a 64-bit mask (e.g. 0xffffffffffffffffULL or __activemask())."),
    Code("HPY108", "library-needs-flag", "report", "unconverted",
         "A library API is translated only with a flag (e.g. cuDNN needs --miopen).",
         "The target library differs from HIP's default choice.",
         "Pass the flag the message names."),
    Code("HPY109", "review", "report", "review",
         "A line deserves review: the translation could not be derived with full certainty.",
         "E.g. the parser could not resolve this code, so the edit came from tokens alone.",
         "Read the translated line."),
    Code("HPY110", "macro-value", "report", "unconverted",
         "A compiler macro whose definition has a HIP meaning is used for its value (e.g. __CUDA_ARCH__ >= 700) and was left as written: every build, old or new, would take a branch HIP cannot compile, or the condition is not one the translation can evaluate.",
         "Whether __CUDA_ARCH__ is defined means 'the device pass' (HIP: __HIP_DEVICE_COMPILE__); an NVIDIA compute capability compared with a number means nothing for AMD GPUs.",
         "Decide which branch AMD GPUs need and write the condition for HIP (e.g. defined(__HIP_DEVICE_COMPILE__))."),
    Code("HPY111", "blocked-use", "report", "unconverted",
         "This code uses a declaration of the project that needs a CUDA API HIP lacks where no statement or function body holds it (a parameter or data member of a type HIP lacks), or a translation unit's own function that does.",
         "The declaration cannot be translated (HIP lacks what it uses), and this use keeps it needed. Such a declaration of a header is left as written where some code uses it (disabled, it would break each user instead).",
         "Port the declaration by hand, or avoid it under HIP."),
    Code("HPY112", "signature-differs", "report", "unconverted",
         "The CUDA function was renamed, but its HIP target does not take what the call passes (the table row's signature differs: other parameter types, another count, another order).",
         "The generator compares each CUDA declaration, its types mapped, with the HIP declaration; no sibling (_v2, _64) or configuration macro makes them match. The renamed call will not compile as written (it is unconverted work, so --check fails).",
         "Adapt the call to the HIP declaration the message describes (hipify-py explain NAME shows the difference)."),
    Code("HPY113", "signature-changed", "report", "review",
         "The CUDA function was renamed to a HIP target that takes the declaration of an older CUDA; CUDA 13 changed it (cudaMemAdvise and cudaMemPrefetchAsync take a cudaMemLocation, graph edges gained edge data).",
         "Most code is written for the older declaration, which the HIP target takes; code written for CUDA 13's passes what it does not.",
         "If the call passes CUDA 13's arguments, rewrite it in the older form (or with the HIP function the message names)."),
    Code("HPY114", "roc-family-kept-hip", "report", "review",
         "--roc: an API family of this file keeps its HIP names (hipBLAS, not rocBLAS): a name the file, or another file of the project, uses has no ROC-side equivalent that takes what its call passes.",
         "A family's types, enumerators and functions must come from one library: rocblas_handle beside hipblasCreate does not compile. The HIP names compile.",
         "Nothing; or port the names the message lists by hand to the ROC library, then translate again."),
    Code("HPY115", "library-incomplete", "report", "unconverted",
         "A library translated only with a flag (cuDNN with --miopen) is used here with names its target lacks or calls whose arguments differ: the file needs hand work.",
         "The library has no HIP names to fall back on: what has an equivalent is translated, the rest is reported at each use.",
         "Port the listed names by hand (MIOpen's API differs from cuDNN's in places)."),
    Code("HPY116", "vector-operator-clash", "report", "review",
         "A __host__ __device__ operator * or / of two CUDA vectors, or a compound assignment, computes something else than HIP's component-wise operator of the same types (a complex product on float2, say).",
         "HIP's vector types define the operator too: every such expression is ambiguous under HIP, and the file does not compile.",
         "Rename the operator into a function (cmul(a, b)) and call that."),
    Code("HPY117", "inline-ptx", "report", "unconverted",
         "Inline PTX assembly (asm(\"mov.u32 %0, %%laneid;\" ...)) was left as written.",
         "PTX is NVIDIA's virtual instruction set: AMD GPUs do not run it, and hipcc rejects it in device code.",
         "Write what it does with a HIP builtin or plain code (the message names the instruction, and a HIP counterpart where one is known)."),
    Code("HPY118", "build-option-dropped", "report", "review",
         "An nvcc option in a build file was dropped, or changed meaning, in the hipcc form (-maxrregcount, -Xptxas, -lineinfo, ...); the message says why.",
         "hipcc (clang) has no such option, or the option tunes NVIDIA's tools only.",
         "Nothing, unless the build relied on it: the message names the AMD way to get the same effect where there is one."),
    Code("HPY119", "build-hand-work", "report", "unconverted",
         "A build-file step that has no HIP translation was left as written (or, for a library ROCm lacks, removed from the link): it calls ptxas, cuobjdump, nvdisasm, fatbinary, nvidia-smi, an nvcc step HIP has no counterpart for (-dlink, -cuda, -lto-ir), reads a file of the CUDA toolkit's headers that no HIP file stands for, or links a library ROCm lacks.",
         "It makes or inspects NVIDIA machine code, or queries NVIDIA hardware: AMD GPUs have neither.",
         "Port the step by hand (roc-obj-ls and llvm-objdump read AMD code objects; rocm-smi and rocminfo query AMD GPUs), or remove it."),
    Code("HPY121", "warp-size-32", "report", "review",
         "A warp-size constant of 32 (#define WARP_SIZE 32, constexpr int kWarpSize = 32) drives lanes: shuffle offsets and widths, lane indices (threadIdx.x % WARP_SIZE), masks, warps per block.",
         "AMD wavefronts have 64 lanes on CDNA GPUs (gfx9: MI100 to MI300) and 32 on RDNA. With 32 written in, the code compiles and splits each 64-wide wavefront in two: shuffles read the wrong lanes, ballots miss half the wavefront, per-warp results are computed twice or not at all.",
         "Use warpSize in device code (HIP's is the wavefront size of the GPU compiled for; on ROCm 7 a value read at run time, not a constant: it cannot size an array or be a template argument) and size per-warp storage for 64; or build only for wave32 GPUs (RDNA). A constant that only sizes block primitives is changed automatically (HPY020)."),
    Code("HPY125", "samples-helper-missing", "report", "unconverted",
         "The file includes one of NVIDIA's CUDA samples helper headers (helper_cuda.h, helper_timer.h, helper_functions.h, ...) that the tree does not hold; the message names what the file uses from it.",
         "Code copied out of NVIDIA's samples keeps their helpers' error checks, device selection and timers; without the header neither the translation nor the compiler sees them, and the port stops at the include.",
         "Add the helper to the tree (the translation translates it with the sources), or replace the uses the message names with the project's own (a HIP error check, hipSetDevice, std::chrono)."),
    Code("HPY122", "not-shimmable", "report", "unconverted",
         "hipify-py shim: the translation changes the code at this place (it disables a definition HIP already has, keeps a vector operator off AMD GPUs, widens a warp-size constant, ...), which no header included before the code can do.",
         "A single-source header defines names; it cannot edit a line, remove a definition or change a constant, so the CUDA code there does not compile (or computes otherwise) for AMD GPUs as it stands.",
         "Give this place a HIP branch of its own (#if defined(__HIP_PLATFORM_AMD__) ... #else ... #endif): the message names the translation's rule, whose own code (in this file) says what HIP needs."),
    Code("HPY123", "shim-drift", "report", "unconverted",
         "hipify-py shim --check: the committed header (or include folder) does not cover a CUDA name or header the sources now use, covers one otherwise than the mapping table says, or covers one no source uses any more.",
         "The header is generated from the sources; a CUDA API a change starts using is not defined for AMD GPUs until it is written again, and such a build fails where the header is not checked.",
         "Run the command --check prints (the same hipify-py shim command without --check) and commit the header it writes."),
    Code("HPY124", "device-launch", "report", "unconverted",
         "A kernel is launched from device code (a <<<...>>> launch inside a __global__ or __device__ function: CUDA's dynamic parallelism).",
         "AMD GPUs cannot launch a kernel from a kernel; hipcc rejects the launch whatever it is named.",
         "Launch the child kernels from the host (after the parent kernel, or as one kernel doing both parts), or keep this code CUDA-only."),
    Code("HPY126", "library-version", "report", "review",
         "A CUDA library's version macro in an #if or #elif (#if CUBLAS_VER_MAJOR >= 11) became the ROCm library's (hipblasVersionMajor): the condition now compares the ROCm library's version with numbers written for the CUDA library's.",
         "The translation maps the name so that a version printed or logged says which library the program runs on; in a condition, hipBLAS 2.x compared with cuBLAS's 11 or 12 takes the branch written for the oldest library, the one needing the fewest APIs. That compiles, but may leave out what HIP has.",
         "Read the branches: keep the one whose APIs the ROCm library has, deciding with its own numbers (hipblasVersionMajor, MIOPEN_VERSION_MAJOR) or with HIP_VERSION_MAJOR."),
    Code("HPY127", "struct-member-missing", "report", "review",
         "A member of a CUDA struct that HIP's counterpart struct lacks (cudaMemPoolProps::usage, cudaDeviceProp::mpsEnabled, cudaResourceDesc::flags) is used: read or set on a variable, pointer or parameter of that struct.",
         "The table records, for each struct it maps, the members of CUDA's body that HIP's body does not declare (from both vendors' headers). The struct is renamed, the member is not: the access does not compile under HIP.",
         "Drop the access where the value is a hint HIP does not take (a reserved field, a usage flag), or read what HIP offers instead (a device attribute, another member)."),
    # Engine and input problems (HPY2xx)
    Code("HPY201", "engine-fallback", "report", "engine",
         "The clang engine was unavailable or failed; the regex engine was used.",
         "libclang could not be loaded or crashed on this file.",
         "Install libclang (pip install hipify-py[clang]) or ignore."),
    Code("HPY202", "overlapping-edit", "report", "engine",
         "Two rewrites touched the same text; one was refused.",
         "Applying both would corrupt the code.",
         "Check the line; report a bug if the output is wrong."),
    Code("HPY203", "parse-errors", "report", "engine",
         "The parser reported errors; AST-derived edits were kept where valid, tokens filled the rest.",
         "Missing headers or code the parser cannot understand.",
         "Pass -I/-D/-p so the parser sees what the compiler sees."),
    Code("HPY204", "internal-error", "report", "engine",
         "An internal error in an engine or a rule; that part of the translation was skipped, the rest applied.",
         "A bug in hipify-py, never a problem of the input.",
         "Report it with the file (or a reduced copy); the other edits of the file are still right."),
    Code("HPY205", "translation-failed", "report", "engine",
         "The translation of this file failed: the engine crashed, ran past the time limit or out of memory, and so did the regex engine's retry. The file was left as it is (copied as it is to an --out-dir mirror); the run went on with the next file.",
         "Each file is translated in a supervised worker process with limits, so that one file can never stop or hang the run.",
         "Report it with the file; raise --timeout or --max-memory if the file is merely large."),
    Code("HPY206", "work-limit", "report", "engine",
         "The file is over a limit on the work one file may take (line length, nesting depth, macro expansion or size for the clang engine; nesting depth for any engine).",
         "Parsers are superlinear or recursive on such input: a libclang crash, minutes of work or gigabytes of memory for one file.",
         "Nothing if the regex engine's translation is right (the message says which engine was used); else split the file or simplify the construct."),
    # File problems (HPY3xx)
    Code("HPY301", "not-utf8", "report", "file",
         "The file is not valid UTF-8 (nor a declared encoding) and was left untouched.",
         "Rewriting text we cannot decode could corrupt it.",
         "Convert it to UTF-8, or pass --encoding."),
    Code("HPY302", "binary", "report", "file",
         "The file looks binary (NUL bytes) and was left untouched.",
         "It is not source code.",
         "Exclude it."),
    Code("HPY303", "unreadable", "report", "file",
         "The path could not be read.",
         "Permissions, a broken symlink or a loop.",
         "Fix the path."),
    Code("HPY304", "too-large", "report", "file",
         "The file is larger than --max-size and was skipped.",
         "Protects against runaway inputs.",
         "Raise --max-size."),
    Code("HPY305", "skip-file", "report", "file",
         "The file asked to be skipped (// hipify-py: skip-file).",
         "A marker in the file.",
         "Nothing."),
    Code("HPY306", "write-failed", "report", "file",
         "The output could not be written; the original is unchanged.",
         "Disk full, permissions.",
         "Fix and re-run."),
    Code("HPY307", "not-utf8-kept", "report", "file",
         "The file is mostly UTF-8 but holds bytes that are not (often a Latin-1 sign in a comment); it was translated and those bytes were kept as they are.",
         "Identifiers are ASCII: rewriting them never touches the other bytes, which are written back unchanged.",
         "Nothing; convert the file to UTF-8 if you like."),
    Code("HPY308", "not-regular", "report", "file",
         "The path is not a regular file (a FIFO, a device, a socket) and was not read.",
         "Reading one can block forever (a FIFO) or never end (/dev/zero).",
         "Give regular files only; a directory walk skips such entries."),
    Code("HPY309", "symlink-out-of-tree", "report", "file",
         "In place, a symbolic link found by a directory walk points to a file outside the directories given; it was not followed.",
         "Rewriting in place follows a link to its target; a walk must not rewrite files outside the tree it was given.",
         "Name the target (or the link) on the command line to translate it."),
    Code("HPY310", "backup-kept", "report", "file",
         "An existing backup differed from the file being replaced; it was kept, and the file was saved under the next free name (FILE.prehip.1, ...).",
         "A backup is trusted only when it is a complete copy of the file being replaced; an older or truncated one must not stand for the original.",
         "Keep the backup you need; delete the others."),
)}
# fmt: on


def codes_of_kind(kind: str) -> frozenset[str]:
    return frozenset(c.code for c in CODES.values() if c.kind == kind)


# Edits that add support code rather than convert a CUDA reference.
SUPPORT_EDIT_CODES = codes_of_kind("support")
# Diagnostics that mean "CUDA code remains untranslated here".
UNCONVERTED_CODES = codes_of_kind("unconverted")
ROCM_DEPENDENT = "HPY022"
ENGINE_FALLBACK = "HPY201"
INTERNAL_ERROR = "HPY204"
TRANSLATION_FAILED = "HPY205"
WORK_LIMIT = "HPY206"
# Engine findings; one of them at error severity means the file failed (exit code 2).
ENGINE_CODES = codes_of_kind("engine")


def describe(code: str) -> Code:
    return CODES[code]


def render_markdown() -> str:
    """docs/diagnostics.md (regenerate with ``python -m hipify.knowledge.codes > docs/diagnostics.md``)."""
    lines = [
        "# hipify-py rule and diagnostic codes",
        "",
        "Generated from `hipify/knowledge/codes.py`. Codes are stable: never renumbered or reused.",
        "Applicability: *safe* edits are applied by default; *report* codes never edit.",
        "Suppress findings and edits with `// hipify-py: off` ... `// hipify-py: on`, a trailing",
        "`// hipify-py: ignore` on one line, or `// hipify-py: skip-file` anywhere in a file.",
        "",
    ]
    for c in CODES.values():
        lines += [
            f"## {c.code} `{c.name}` ({c.applicability})",
            "",
            f"- **What:** {c.what}",
            f"- **Why:** {c.why}",
            f"- **What to do:** {c.todo}",
            "",
        ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(render_markdown(), end="")
