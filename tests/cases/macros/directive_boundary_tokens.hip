#include <hip/hip_runtime.h>

// The first name on the line after a directive does not follow the directive's last
// token: 'SOME_MACRO cudaFree(p)' is not a declaration of cudaFree.
void release(float* p, hipStream_t s) {
#if SOME_MACRO
  hipFree(p);
#elif OTHER_MACRO > 2
  hipFreeAsync(p, s);
#else
  hipDeviceSynchronize();
#endif
#ifdef HAVE_EVENTS
  hipEvent_t ev;
  hipEventCreate(&ev);
#endif
#ifndef NO_SYNC
  hipStreamSynchronize(s);
#endif
}

#define RELEASE_FN release
hipError_t last() { return hipGetLastError(); }
