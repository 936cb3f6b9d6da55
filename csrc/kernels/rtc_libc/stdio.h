/* <stdio.h> for NVRTC: see rtc_libc.h */
#include "rtc_libc.h"
