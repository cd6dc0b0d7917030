#include <hip/hip_runtime.h>

float time_it(void (*work)(hipStream_t)) {
  hipStream_t stream;
  hipEvent_t start, stop;
  hipStreamCreate(&stream);
  hipEventCreate(&start);
  hipEventCreate(&stop);
  hipEventRecord(start, stream);
  work(stream);
  hipEventRecord(stop, stream);
  hipEventSynchronize(stop);
  float ms = 0.f;
  hipEventElapsedTime(&ms, start, stop);
  hipEventDestroy(start);
  hipEventDestroy(stop);
  hipStreamDestroy(stream);
  return ms;
}
