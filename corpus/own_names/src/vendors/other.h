// Another platform's build (OWN_USE_OTHER): CUDA names spelled as that platform's.
#pragma once
#include <other_runtime.h>
#define cudaStream_t otherStream_t
#define cudaMemcpyAsync otherMemcpyAsync
#define __trap() other_trap()
