// helper_functions.h for HIP, written by hipify-py: as NVIDIA's CUDA samples' helper, the string, timer and image
// helpers with the standard headers they use.
#ifndef HIPIFY_SAMPLES_HELPER_FUNCTIONS_H
#define HIPIFY_SAMPLES_HELPER_FUNCTIONS_H

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "helper_image.h"
#include "helper_string.h"
#include "helper_timer.h"

#endif  // HIPIFY_SAMPLES_HELPER_FUNCTIONS_H
