/* <limits.h> for NVRTC: see rtc_libc.h */
#include <cuda/std/climits>
#include "rtc_libc.h"
