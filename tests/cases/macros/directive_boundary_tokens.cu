#include <cuda_runtime.h>

// The first name on the line after a directive does not follow the directive's last
// token: 'SOME_MACRO cudaFree(p)' is not a declaration of cudaFree.
void release(float* p, cudaStream_t s) {
#if SOME_MACRO
  cudaFree(p);
#elif OTHER_MACRO > 2
  cudaFreeAsync(p, s);
#else
  cudaDeviceSynchronize();
#endif
#ifdef HAVE_EVENTS
  cudaEvent_t ev;
  cudaEventCreate(&ev);
#endif
#ifndef NO_SYNC
  cudaStreamSynchronize(s);
#endif
}

#define RELEASE_FN release
cudaError_t last() { return cudaGetLastError(); }
