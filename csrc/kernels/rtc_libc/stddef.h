/* <stddef.h> for NVRTC: see rtc_libc.h */
#include <cuda/std/cstddef>
#include "rtc_libc.h"
