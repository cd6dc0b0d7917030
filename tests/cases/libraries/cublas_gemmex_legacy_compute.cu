// hipify-py-flags: --rocm 6.4
// The GEMM-Ex compute type given as a data type (CUDA_R_32I), the form CUDA's C++ overload still converts
// (cublasMigrateComputeType): hipBLAS's compute-type parameter takes HIPBLAS_COMPUTE_*; the matrices' types stay.
#include <cublas_v2.h>

void gemms(cublasHandle_t h, const void* a, const void* b, void* c, bool exact, long long s) {
    cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_T, 8, 8, 8, a, b, CUDA_R_8I, 8, b, CUDA_R_8I, 8, a, c, CUDA_R_32I, 8,
                 CUDA_R_32I, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
    cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, a, b, CUDA_R_16F, 8, s, b, CUDA_R_16F, 8, s,
                               a, c, CUDA_R_16F, 8, s, 4, exact ? CUDA_R_32F : CUDA_R_16F, CUBLAS_GEMM_DEFAULT);
    // already a compute type: unchanged but for the name
    cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, a, b, CUDA_R_32F, 8, b, CUDA_R_32F, 8, a, c, CUDA_R_32F, 8,
                 CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
}
