// hipify-py-flags: --rocm 6.4
// The GEMM-Ex compute type given as a data type (CUDA_R_32I), the form CUDA's C++ overload still converts
// (cublasMigrateComputeType): hipBLAS's compute-type parameter takes HIPBLAS_COMPUTE_*; the matrices' types stay.

#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>

void gemms(hipblasHandle_t h, const void* a, const void* b, void* c, bool exact, long long s) {
    hipblasGemmEx_v2(h, HIPBLAS_OP_N, HIPBLAS_OP_T, 8, 8, 8, a, b, HIP_R_8I, 8, b, HIP_R_8I, 8, a, c, HIP_R_32I, 8,
                 HIPBLAS_COMPUTE_32I, HIPBLAS_GEMM_DEFAULT);
    hipblasGemmStridedBatchedEx_v2(h, HIPBLAS_OP_N, HIPBLAS_OP_N, 8, 8, 8, a, b, HIP_R_16F, 8, s, b, HIP_R_16F, 8, s,
                               a, c, HIP_R_16F, 8, s, 4, exact ? HIPBLAS_COMPUTE_32F : HIPBLAS_COMPUTE_16F, HIPBLAS_GEMM_DEFAULT);
    // already a compute type: unchanged but for the name
    hipblasGemmEx_v2(h, HIPBLAS_OP_N, HIPBLAS_OP_N, 8, 8, 8, a, b, HIP_R_32F, 8, b, HIP_R_32F, 8, a, c, HIP_R_32F, 8,
                 HIPBLAS_COMPUTE_32F_FAST_TF32, HIPBLAS_GEMM_DEFAULT);
}
