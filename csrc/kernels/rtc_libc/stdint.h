/* <stdint.h> for NVRTC: see rtc_libc.h */
#include <cuda/std/cstdint>
#include "rtc_libc.h"
