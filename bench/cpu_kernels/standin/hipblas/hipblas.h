// Declarations only (hipBLAS has no CPU form): kernel code that never calls hipBLAS parses.
#pragma once
typedef struct hipblasContext* hipblasHandle_t;
typedef enum { HIPBLAS_STATUS_SUCCESS, HIPBLAS_STATUS_NOT_INITIALIZED, HIPBLAS_STATUS_ALLOC_FAILED,
  HIPBLAS_STATUS_INVALID_VALUE, HIPBLAS_STATUS_MAPPING_ERROR, HIPBLAS_STATUS_EXECUTION_FAILED,
  HIPBLAS_STATUS_INTERNAL_ERROR, HIPBLAS_STATUS_NOT_SUPPORTED, HIPBLAS_STATUS_ARCH_MISMATCH } hipblasStatus_t;
typedef enum { HIPBLAS_DEFAULT_MATH, HIPBLAS_TF32_TENSOR_OP_MATH } hipblasMath_t;
const char* hipblasStatusToString(hipblasStatus_t);
hipblasStatus_t hipblasCreate(hipblasHandle_t*);
hipblasStatus_t hipblasSetMathMode(hipblasHandle_t, hipblasMath_t);
hipblasStatus_t hipblasSetStream(hipblasHandle_t, hipStream_t);
