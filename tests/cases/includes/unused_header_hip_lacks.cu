// Headers HIP has no counterpart of: mma.h is included but nothing of it (nvcuda::wmma) is used, so the include
// becomes a comment; cuda_pipeline.h's __pipeline_commit is used, so that include stays (and is reported).
#include <cuda_runtime.h>
#include <mma.h>
#include <cuda_pipeline.h>

__global__ void scale(float* x, float s) {
    x[threadIdx.x] *= s;
    __pipeline_commit();
}
