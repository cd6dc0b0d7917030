// hipify-py-flags: --no-runtime-include
__global__ void noop() {}
