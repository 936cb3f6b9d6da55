/* <float.h> for NVRTC: see rtc_libc.h */
#include <cuda/std/cfloat>
#include "rtc_libc.h"
