#pragma once
#include <cuda_runtime.h>
#include <cuda_fp8.h>
