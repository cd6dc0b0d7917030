// Stand-in (bench/cpu_kernels.py's second pass only): hipBLASLt's handle types, declarations only.
#pragma once
typedef struct hipblasLtContext* hipblasLtHandle_t;
typedef struct hipblasLtMatmulDescOpaque* hipblasLtMatmulDesc_t;
typedef struct hipblasLtMatrixLayoutOpaque* hipblasLtMatrixLayout_t;
typedef struct hipblasLtMatmulPreferenceOpaque* hipblasLtMatmulPreference_t;
